import { createSwitchboardClient, unwrap } from '@app/client';

/**
 * With an API key: an agent, a batch of two contacts on one of your numbers, its details and
 * its CSV export. Every path, body and answer below is typed from openapi.json.
 */
export async function quickStart(baseUrl: string, apiKey: string, phoneId: string) {
  const client = createSwitchboardClient({ baseUrl, apiKey });

  const { data: agent } = await unwrap(
    client.POST('/api/agents', {
      body: { agent_name: 'Renewals', prompt: 'You offer the renewal.', language: 'en-US' },
    }),
  );

  const { data: batchId, contacts } = await unwrap(
    client.POST('/api/call/createBatch', {
      body: {
        batchName: 'Spring renewals',
        callingNumbers: [phoneId],
        agentId: agent._id,
        contacts: [
          { phoneNumber: '+14155550101', name: 'Grace', plan: 'gold' },
          { phoneNumber: '+14155550102', name: 'Alan', plan: 'silver' },
        ],
      },
    }),
  );
  console.log(`batch ${batchId}: ${contacts?.imported} contacts imported`);

  const { data: details } = await unwrap(
    client.GET('/api/call/batch-details/{id}', { params: { path: { id: batchId } } }),
  );
  console.log(`${details.batchName} is ${details.batchStatus}, ${details.total} call records`);

  const { data: csv } = await client.GET('/api/call/export/csv', {
    params: { query: { batchId } },
    parseAs: 'text',
  });
  return { agent, batchId, details, csv };
}

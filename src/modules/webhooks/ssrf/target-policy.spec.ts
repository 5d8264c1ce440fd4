import { checkWebhookTarget, type WebhookDnsResolver } from './target-policy';

const resolvesTo =
  (...addresses: string[]): WebhookDnsResolver =>
  () =>
    Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
const publicDns = resolvesTo('93.184.216.34');
const strict = (resolve: WebhookDnsResolver = publicDns) => ({
  allowPrivateTargets: false,
  resolve,
});

describe('checkWebhookTarget', () => {
  it.each([
    'https://hooks.example.com/in',
    'https://hooks.example.com:443/in',
    'https://hooks.example.com:8443/in',
    'https://hooks.example.com:65535/in?x=1',
    'https://8.8.8.8/in',
    'https://[2606:4700:4700::1111]/in',
  ])('accepts %s', async (url) => {
    await expect(checkWebhookTarget(url, strict())).resolves.toMatchObject({ allowed: true });
  });

  it.each([
    ['not a url', /absolute https URL/],
    ['/relative', /absolute https URL/],
    ['http://hooks.example.com/in', /must use https/],
    ['ftp://hooks.example.com/in', /must use https/],
    ['https://user:pass@hooks.example.com/in', /credentials/],
    ['https://user@hooks.example.com/in', /credentials/],
    ['https://hooks.example.com:80/in', /port must be 443/],
    ['https://hooks.example.com:22/in', /port must be 443/],
    ['https://hooks.example.com:1023/in', /port must be 443/],
    ['https://127.0.0.1/in', /loopback/],
    ['https://2130706433/in', /127\.0\.0\.1 is a loopback/],
    ['https://0x7f.0.0.1/in', /127\.0\.0\.1 is a loopback/],
    ['https://0177.0.0.1/in', /127\.0\.0\.1 is a loopback/],
    ['https://0x7f000001/in', /loopback/],
    ['https://127.1/in', /loopback/],
    ['https://[::1]/in', /loopback/],
    ['https://[::ffff:127.0.0.1]/in', /loopback/],
    ['https://[::ffff:a9fe:a9fe]/in', /metadata/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://[fd00:ec2::254]/in', /metadata/],
    ['https://10.0.0.1/in', /private/],
    ['https://192.168.0.10:8443/in', /private/],
    ['https://[fe80::1]/in', /link-local/],
    ['https://0.0.0.0/in', /unspecified/],
    ['https://localhost/in', /local name/],
    ['https://localhost./in', /local name/],
    ['https://api.localhost/in', /local name/],
    ['https://printer.local/in', /local name/],
  ])('refuses %s', async (url, reason) => {
    const verdict = await checkWebhookTarget(url, strict());
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toMatch(reason);
  });

  it('refuses a host name when any of its addresses is not global', async () => {
    const verdict = await checkWebhookTarget(
      'https://rebind.example.com/in',
      strict(resolvesTo('93.184.216.34', '10.0.0.5')),
    );
    expect(verdict).toEqual({
      allowed: false,
      reason: 'url host rebind.example.com resolves to 10.0.0.5 is a private address',
    });
  });

  it.each(['127.0.0.1', '169.254.169.254', '::1', '::ffff:192.168.0.1', 'fd00::1'])(
    'refuses a host name that resolves to %s',
    async (address) => {
      await expect(
        checkWebhookTarget('https://sneaky.example.com/in', strict(resolvesTo(address))),
      ).resolves.toMatchObject({ allowed: false });
    },
  );

  it('refuses a trailing-dot host name that resolves to loopback', async () => {
    const resolve = jest.fn(resolvesTo('127.0.0.1'));
    await expect(
      checkWebhookTarget('https://sneaky.example.com./in', strict(resolve)),
    ).resolves.toMatchObject({ allowed: false });
    expect(resolve).toHaveBeenCalledWith('sneaky.example.com.');
  });

  it('refuses a host name that does not resolve', async () => {
    await expect(
      checkWebhookTarget(
        'https://nx.example.com/in',
        strict(() => Promise.reject(new Error('x'))),
      ),
    ).resolves.toEqual({ allowed: false, reason: 'url host nx.example.com does not resolve' });
    await expect(
      checkWebhookTarget('https://empty.example.com/in', strict(resolvesTo())),
    ).resolves.toMatchObject({ allowed: false });
  });

  describe('with allowPrivateTargets (tests only)', () => {
    const lax = { allowPrivateTargets: true, resolve: resolvesTo('127.0.0.1') };

    it.each([
      'https://localhost:8443/in',
      'https://127.0.0.1:8443/in',
      'https://[::1]:8443/in',
      'https://internal.example.com/in',
    ])('accepts %s', async (url) => {
      await expect(checkWebhookTarget(url, lax)).resolves.toMatchObject({ allowed: true });
    });

    it('still requires https, no credentials and an allowed port', async () => {
      for (const url of [
        'http://localhost:8443/in',
        'https://u:p@localhost:8443/in',
        'https://localhost:80/in',
      ]) {
        await expect(checkWebhookTarget(url, lax)).resolves.toMatchObject({ allowed: false });
      }
    });
  });
});

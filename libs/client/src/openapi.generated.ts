// Generated from openapi.json by scripts/generate-client.ts (npm run sdk): do not edit.
export interface paths {
  '/api/auth/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an organization and its first admin
     * @description The answer does not tell whether the e-mail already has an account: for a taken e-mail it is the same 201 with the same fields, but nothing is created, the access token is refused (401) wherever it is used, and the owner of the address is told by e-mail (at most once an hour) that someone tried to sign up with it. Limited per client address (AUTH_REGISTER_MAX_PER_ADDRESS per AUTH_REGISTER_WINDOW_SECONDS): above it, 429 with Retry-After.
     */
    post: operations['register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with e-mail and password
     * @description Attempts are limited per client address, per e-mail from one address, and per e-mail from addresses that have not signed in to it in the last 14 days (the limits of AUTH_LOGIN_*), so guesses by others never lock the owner out of their own address. Above a limit: 429 with Retry-After.
     */
    post: operations['login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['me'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/live': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['live'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description The Prometheus text exposition of this process: HTTP latency by route template, queue depth and job durations, webhook delivery outcomes and latency, calls placed and live per status, voice turn latency and barge-ins, unhandled rejections and uncaught exceptions, and Node process metrics. Send `Authorization: Bearer <METRICS_TOKEN>` (a scrape token, not a user token); without METRICS_TOKEN configured the route answers 404. METRICS_PORT serves the same on an internal listener without a token.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/add-phone': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a phone number
     * @description Validates the credentials and the number at the provider, then saves the number and wires the provider's callbacks to it; a failure at any step leaves nothing saved or wired. A provider that is down, times out or fails answers 502 with its reason; a provider refusing the webhook set-up answers 500 (`Webhook set-up failure`). provider_three callbacks are verified with the Telnyx account's public key: `publicKey` when given, else the server's PROVIDER_THREE_PUBLIC_KEY; outside embedded mode a provider_three number needs one of them (400 otherwise, before Telnyx is called).
     */
    post: operations['addPhone'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/phones': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['listPhones'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/phones/{phoneId}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['verifyPhone'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/delete-phone/{phoneId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: operations['deletePhone'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List voice agents
     * @description Newest first. page defaults to 1, limit to 10 (at most 100); search keeps the agents whose name contains it. 400: invalid query.
     */
    get: operations['listAgents'];
    put?: never;
    /**
     * Create a voice agent
     * @description Only agent_name is required; the other fields take the defaults shown. Each organization has one default agent while it has any: its first agent, until another is made default with `isDefault: true`. A batch created without `agentId` uses the default; so does a batch whose agent was deleted (its agentId becomes null). 400: invalid fields.
     */
    post: operations['createAgent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/agents/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get one voice agent */
    get: operations['getAgent'];
    put?: never;
    post?: never;
    /**
     * Delete a voice agent for good
     * @description Batches that named it fall back to the organization’s default agent (their agentId becomes null); a batch left with no agent at all is paused with statusReason no_agent when its next call is due. Deleting the default makes the oldest remaining agent the default.
     */
    delete: operations['deleteAgent'];
    options?: never;
    head?: never;
    /**
     * Update a voice agent
     * @description Only the fields sent change. null clears gender, voice, greeting, voicemailMessage and transferNumber, and answers 400 for any other field. Each organization has one default agent while it has any: its first agent, until another is made default with `isDefault: true`. A batch created without `agentId` uses the default; so does a batch whose agent was deleted (its agentId becomes null). 409: isDefault false on the default agent.
     */
    patch: operations['updateAgent'];
    trace?: never;
  };
  '/api/video-agent/voices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the voices agents can use
     * @description The voice catalogue of this deployment (VOICE_CATALOGUE, else the built-in one), in its own order. `audio`: the agent is heard only, spoken by a text-to-speech engine (the voices a voice agent’s `voice` may name too). `video`: a talking avatar; its voices come from engines that return word timing with the audio (ElevenLabs, the offline eSpeak NG), which lip-sync needs. Without mode every voice is listed once. Open to every authenticated caller: the catalogue is the same for every organization. 400: a mode other than audio or video.
     */
    get: operations['listVoices'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/video-agent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a video agent
     * @description name and voiceId are required; mode defaults to video, language to the voice’s. 400: invalid fields, or a voiceId that is not a voice of the agent’s mode.
     */
    post: operations['createVideoAgent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/video-agent/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get one video agent
     * @description 400: malformed id; 404: unknown, or in another organization.
     */
    get: operations['getVideoAgent'];
    put?: never;
    post?: never;
    /**
     * Delete a video agent for good
     * @description Answers status, code and message only.
     */
    delete: operations['deleteVideoAgent'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/files/{key}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a stored file through a signed URL
     * @description The URLs come from the API (a knowledge base document’s `url`); no credentials are needed, the signature is the authorization. Served as an attachment. 403: the signature does not match the URL, or the URL has expired. 404: the file was deleted.
     */
    get: operations['downloadFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/knowledgeBase/createKnowledgeBase': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a knowledge base, optionally with documents
     * @description multipart/form-data. Each new document is `processing` until its text has been extracted and indexed in the background, then `ready` (searchable) or `failed` (see the documents list). 400: invalid field, a file outside the `files` field, too many files, malformed body. 413: the files together exceed UPLOAD_MAX_BYTES. 415: a file that is not a supported document, or a body that is not multipart/form-data. Nothing is kept when the request fails.
     */
    post: operations['createKnowledgeBase'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/knowledgeBase': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List knowledge bases
     * @description Newest first. page defaults to 1, limit to 10 (at most 100); search keeps the bases whose name contains it. data is the page; `pagination` beside it gives the totals. 400: invalid query.
     */
    get: operations['listKnowledgeBases'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/knowledgeBase/{knowledgeBaseId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a knowledge base with its documents
     * @description Each document has a signed download URL, valid for STORAGE_URL_TTL_SECONDS.
     */
    get: operations['getKnowledgeBase'];
    /**
     * Update a knowledge base, adding documents
     * @description multipart/form-data; every field optional: only those sent change. Existing documents are kept (removed only by the document delete), except that a file with the name of an existing document replaces it. Each new document is `processing` until its text has been extracted and indexed in the background, then `ready` (searchable) or `failed` (see the documents list). 404: unknown base (checked before the files are read). 400: invalid field, a file outside the `files` field, too many files, malformed body. 413: the files together exceed UPLOAD_MAX_BYTES. 415: a file that is not a supported document, or a body that is not multipart/form-data. Nothing is kept when the request fails.
     */
    put: operations['updateKnowledgeBase'];
    post?: never;
    /**
     * Delete a knowledge base for good
     * @description Its documents, their stored files and their passages go with it, and every agent that used it stops using it (its id leaves their knowledgeBaseIds).
     */
    delete: operations['deleteKnowledgeBase'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/knowledgeBase/{knowledgeBaseId}/documents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the documents of a knowledge base
     * @description Oldest upload first, with size, type and processing status. Each new document is `processing` until its text has been extracted and indexed in the background, then `ready` (searchable) or `failed` (see the documents list).
     */
    get: operations['listKnowledgeBaseDocuments'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/knowledgeBase/{knowledgeBaseId}/documents/{fileName}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete one document of a knowledge base
     * @description By its fileName as the base lists it (URL-encoded). Its stored file and passages go with it. 404: unknown base or no document of that name.
     */
    delete: operations['deleteKnowledgeBaseDocument'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/knowledgeBase/{knowledgeBaseId}/search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Search the passages of a knowledge base
     * @description Hybrid search over the passages (about 1,000 characters each, overlapping) of the base’s ready documents, best first: what voice and messaging agents are given. Two rankings are fused by reciprocal rank: full text (passages holding any word of q, in the base’s `language`, the rarer words weighing more, as BM25 weighs them; of a word in more than 1,000 passages, 1,000 are ranked) and meaning (cosine similarity of embeddings: from the embeddings endpoint, EMBEDDINGS_API_URL or LLM_API_URL, else the offline embedding; when the endpoint fails or is slow, the search goes on without it). A question unrelated to every passage may find nothing. 400: q missing or blank, limit outside 1–50.
     */
    get: operations['searchKnowledgeBase'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/messaging-integration': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Connect a business number of the messaging platform
     * @description Checks at the platform that the access token is valid and that the number belongs to the business account, subscribes our app to the business account, then saves. 400: invalid fields, a token the platform refuses or that may not manage the number, or a number of another business account; 404: no such number or business account at the platform; 409: the number is already connected (here or to another organization: the platform sends a number's events to one place). 502: the platform is down, timed out or throttled us. Tokens are stored encrypted and never returned.
     */
    post: operations['createMessagingIntegration'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/messaging-number': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the connected business numbers
     * @description Oldest first. Access tokens are never returned.
     */
    get: operations['listMessagingNumbers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/update-integration/{phoneNumberId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Update a connected business number
     * @description Only the fields sent change. A new accessToken or businessAccountId is checked at the platform first (and our app subscribed to the business account); success sets status back to connected. 400: invalid body or phoneNumberId, or a new token the platform refuses; 404: no such connected number; 409: the number does not belong to the (new) business account at the platform, or the platform refused the stored token. 502: the platform is down, timed out or throttled us. Tokens are stored encrypted and never returned.
     */
    put: operations['updateMessagingIntegration'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/update-webhook-url': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Set where a business number’s incoming messages and statuses go
     * @description Applied at the platform through the per-number webhook override (with MESSAGING_VERIFY_TOKEN for its verify handshake) and read back. The URL must be public https: no private, loopback, link-local or metadata address. 400: invalid body; 404: no such connected number; 409: the platform refused the stored token; 422: the URL is not public https; 503: MESSAGING_VERIFY_TOKEN is not configured. 502: the platform is down, timed out or throttled us. Tokens are stored encrypted and never returned.
     */
    put: operations['updateMessagingWebhookUrl'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/validate-messaging-number': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Tell whether a number can receive messages
     * @description The platform offers no check of whether a number uses it, so isValid is true when the number is well formed, dialable and a mobile line by its country’s numbering plan (North American numbers do not tell fixed from mobile and count as mobile), and the platform has not reported it undeliverable (error 131026) to this organization. A valid answer is no guarantee of delivery. Creates nothing. 400: malformed number (not digits with the country code). A number that does not exist answers isValid false, never 404.
     */
    post: operations['validateMessagingNumber'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/get-all-templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the templates of every connected business account
     * @description Each template once, in the platform's order per account. Templates are synchronised from the platform (every page) when the copy is older than MESSAGING_TEMPLATE_CACHE_SECONDS (default 900: 15 minutes); while the platform cannot be reached or refuses the token, the last synchronised copy is served.
     */
    get: operations['listAllMessagingTemplates'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/get-templates/{phoneNumberId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the templates of one business number
     * @description The templates of the number's business account. Templates are synchronised from the platform (every page) when the copy is older than MESSAGING_TEMPLATE_CACHE_SECONDS (default 900: 15 minutes); while the platform cannot be reached or refuses the token, the last synchronised copy is served. 400: malformed phoneNumberId; 404: no such connected number; 409 or 502: never synchronised and the platform refused the stored token or is unavailable.
     */
    get: operations['listMessagingTemplates'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/get-variable-by-template-id/{phoneNumberId}/{templateId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the variables a template needs
     * @description Positional `{{1}}` and named `{{first_name}}` variables of the header, the body and URL buttons, in order, each with the example the template was registered with. Templates are synchronised from the platform (every page) when the copy is older than MESSAGING_TEMPLATE_CACHE_SECONDS (default 900: 15 minutes); while the platform cannot be reached or refuses the token, the last synchronised copy is served. 400: malformed ids; 404: no such connected number or template.
     */
    get: operations['getMessagingTemplateVariables'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/save-messaging-agent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create the AI agent of a business number
     * @description 400: missing or invalid fields; 404: the number is not connected, or a knowledge base is not one of the organization; 409: the number already has an agent (one per number).
     */
    post: operations['createMessagingAgent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/get-messaging-agent/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a messaging agent
     * @description 400: malformed id; 404.
     */
    get: operations['getMessagingAgent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/update-messaging-agent/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Update a messaging agent
     * @description Only the fields sent change. 400: malformed id or invalid fields; 404: unknown agent, number or knowledge base; 409: the new number already has an agent.
     */
    put: operations['updateMessagingAgent'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/delete-messaging-agent/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a messaging agent for good
     * @description Answers status, code and message only.
     */
    delete: operations['deleteMessagingAgent'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Platform: verify the webhook URL
     * @description Called by the messaging platform when the webhook URL is set. With hub.mode=subscribe and hub.verify_token equal to MESSAGING_VERIFY_TOKEN, answers hub.challenge as plain text; otherwise 403 (always, while MESSAGING_VERIFY_TOKEN is unset). 400: the token matched but hub.challenge is missing or not a short token.
     */
    get: operations['verifyMessagingWebhook'];
    put?: never;
    /**
     * Platform: incoming messages and delivery statuses
     * @description Called by the messaging platform. X-Hub-Signature-256 must be `sha256=` and the hex HMAC-SHA256 of the raw body with MESSAGING_APP_SECRET; missing or wrong (or the secret unset) answers 401 and stores nothing. A verified delivery is stored and answered 200 at once; a queued job then routes each message and status by its business number (unknown numbers are ignored), stores each message once by its id (redeliveries change nothing) and has the number’s agent answer it; statuses only move up (sent < delivered < read; failed wins) and a failure 131026 marks the customer’s number undeliverable. One reply per customer turn: messages that come within MESSAGING_REPLY_PAUSE_MS (1.5 s) of each other are answered together by one reply whose model request has seen them all; one worker answers a conversation at a time, so a message sent while a reply is being written gets a follow-up reply that has seen it. The customer’s latest message is marked read, with the typing indicator, while the model writes.
     */
    post: operations['receiveMessagingEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the conversations of the messaging agents
     * @description One conversation per customer and business number, latest activity first. 400: page or limit out of range.
     */
    get: operations['listMessagingConversations'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/conversations/{id}/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a conversation
     * @description Every message, oldest first: what the customer sent, what the agent sent (welcome, replies, templates) with its delivery status, and entries for answers that could not be sent (status not_sent: no model configured, a model error, or outside the 24-hour window), each with its error. What the customer sent besides text is in `media` (photos, voice notes with their transcript, videos, documents, stickers: download them at `media.downloadPath`), `choice` (a tapped template quick-reply button, reply button or list row, with its payload), `location`, `contacts` and `reaction` (stored, never answered). 400: malformed id; 404: no such conversation here.
     */
    get: operations['listMessagingConversationMessages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/conversations/{id}/messages/{messageId}/media': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the media of a customer message
     * @description The photo, voice note, audio, video, document or sticker of an incoming message, fetched from the platform through the number that received it (its media lookup, then the short-lived URL it gives) and streamed as an attachment with its media type; nothing is stored here. 400: malformed id; 404: no such conversation, message, or no media in it; 409: the platform refused the number’s access token (connect the number again); 410: the platform no longer holds the media (it keeps incoming media for a limited time); 502: the platform is down, failing or timed out.
     */
    get: operations['downloadMessagingMessageMedia'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/messaging/conversations/{id}/template': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a template to re-open a conversation
     * @description Sends an APPROVED template of the conversation’s number with its variables filled in (the only message the platform takes more than 24 hours after the customer last wrote) and clears needsTemplate; when the customer answers, the agent takes over again. Answers the stored message: sent, failed (the platform refused it, see error) or pending (the platform is unavailable; retried with backoff). 400: invalid body, or variables that do not match the template’s (each named); 404: no such conversation, or no template of that name and language for the number; 409: the template is not APPROVED, or the templates were never synchronised and the platform refused the token; 502: never synchronised and the platform is unavailable.
     */
    post: operations['sendMessagingConversationTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/{integration}/{phoneId}/answer': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Provider callback: the call was answered (GET)
     * @description Records the answer and replies with what the call hears, in the provider's format: TwiML (provider_two) or Plivo XML (provider_one). When the voice runtime can run (VOICE_RUNTIME on and the speech engines ready) the call's audio is connected to the media WebSocket `{PUBLIC_BASE_URL as ws:/wss:}/api/telephony/{integration}/stream` (TwiML `<Connect><Stream>` with the single-use stream token as a `<Parameter name="token">`; Plivo `<Stream bidirectional="true" keepCallAlive="true">` with `extraHeaders="token=…"`; base64 μ-law 8 kHz, 20 ms frames), where the agent speaks; the token lives five minutes, opens one socket once, and a socket without a valid one is closed before any audio is read. Otherwise the agent's greeting (its voicemail message when answering-machine detection says machine) by the provider's speech verb, then hang up. Plivo also records the call when the batch records calls. A call this number did not place is hung up. provider_three has no answer URL (404): its status callback starts the stream (`streaming_start`, token in the stream URL) or speaks through Call Control. Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    get: operations['providerAnswerByGet'];
    put?: never;
    /**
     * Provider callback: the call was answered
     * @description Records the answer and replies with what the call hears, in the provider's format: TwiML (provider_two) or Plivo XML (provider_one). When the voice runtime can run (VOICE_RUNTIME on and the speech engines ready) the call's audio is connected to the media WebSocket `{PUBLIC_BASE_URL as ws:/wss:}/api/telephony/{integration}/stream` (TwiML `<Connect><Stream>` with the single-use stream token as a `<Parameter name="token">`; Plivo `<Stream bidirectional="true" keepCallAlive="true">` with `extraHeaders="token=…"`; base64 μ-law 8 kHz, 20 ms frames), where the agent speaks; the token lives five minutes, opens one socket once, and a socket without a valid one is closed before any audio is read. Otherwise the agent's greeting (its voicemail message when answering-machine detection says machine) by the provider's speech verb, then hang up. Plivo also records the call when the batch records calls. A call this number did not place is hung up. provider_three has no answer URL (404): its status callback starts the stream (`streaming_start`, token in the stream URL) or speaks through Call Control. Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    post: operations['providerAnswer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/{integration}/{phoneId}/transfer': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Provider callback: a transferred call's dial instructions
     * @description Fetched by the provider when the voice agent transfers a live call (its transfer_call tool): provider_two as the `Url` of the call update, provider_one as the transfer's `aleg_url`. Replies a <Dial> of the agent's transferNumber shown our calling number, ringing 45 s, whose progress is reported to `transfer-status`: TwiML `<Dial action="{transfer-status}" method="POST" callerId="{our number}" timeout="45"><Number statusCallbackEvent="answered" statusCallback="{transfer-status}" statusCallbackMethod="POST">{number}</Number></Dial>`; Plivo XML `<Dial action="{transfer-status}" method="POST" redirect="true" callbackUrl="{transfer-status}" callbackMethod="POST" callerId="{our number}" timeout="45"><Number>{number}</Number></Dial>`. A warm transfer (the agent's transferMode) adds what the new party hears before being put through, `transfer-briefing`: provider_two as the <Number>'s `url` (method POST), provider_one as `confirmSound`, with `confirmKey="1"` and `confirmTimeout="45"`. `<Hangup/>` when the call has no transfer under way or is over. provider_three transfers through Call Control and has no such URL (404). Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    post: operations['providerTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/{integration}/{phoneId}/transfer-status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Provider callback: a transfer's progress
     * @description Where provider_two and provider_one report a transfer's <Dial>. The new party answered (provider_two: the <Number>'s status callback, CallStatus `in-progress` with ParentCallSid; provider_one: DialAction `answer`, which a warm transfer reports once the confirmKey bridged the call; a warm transfer on provider_two is made by `transfer-decision` instead): the transfer is made — the phone log gets transferredAt and call.transferred is raised, once; the reply is an empty document. The <Dial> ended (its `action`: provider_two DialCallStatus, provider_one DialStatus): after a conversation with the new party (completed, answered) the reply is `<Hangup/>` (recording the transfer if its answer was never reported); unanswered (no-answer, busy, failed, canceled, timeout) the transfer is taken off the phone log and the reply connects the caller to a new media stream (as the answer does), where the agent tells the caller no one could take the call and goes on with the conversation, transfer_call no longer offered (where this process cannot stream, VOICE_RUNTIME off or its speech engines not ready, the caller hears an apology by the provider's speech verb, then `<Hangup/>`); a caller who already hung up gets `<Hangup/>`. provider_three reports its transfers on the status URL (404 here). Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    post: operations['providerTransferStatus'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/{integration}/{phoneId}/transfer-briefing': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Provider callback: a warm transfer's brief
     * @description Fetched by the provider when the new party of a warm transfer picks up, before they are put through: the brief the agent wrote (call.transferred's `summary`), read in the agent's language, then "Press 1 to take the call." provider_two: TwiML `<Gather input="dtmf" numDigits="1" timeout="10" action="{transfer-decision}" method="POST"><Say>…</Say></Gather><Hangup/>` — no key within 10 s declines. provider_one: `<Speak>…</Speak>` (its confirmSound; Plivo bridges on the confirmKey). A call with no warm transfer waiting: provider_two `<Hangup/>`, provider_one an empty document. provider_three: 404. Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    post: operations['providerTransferBriefing'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/{integration}/{phoneId}/transfer-decision': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Provider callback: a warm transfer's answer
     * @description provider_two's <Gather action> after the brief: `Digits` 1 makes the transfer (the phone log gets transferredAt, call.transferred is raised, once) and the empty reply puts the new party through; any other key replies `<Hangup/>`, and when the <Dial> ends the caller is back with the agent, who says no one could take the call and goes on. provider_one and provider_three: 404. Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    post: operations['providerTransferDecision'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/{integration}/{phoneId}/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Provider callback: call progress (GET)
     * @description Moves the attempt's phone log (callStatus, providerStatus, callDuration, answeredBy, recordingUrl, endedReason) and raises its call events in the same transaction: call.started, call.answered, call.completed or call.failed (with the retry decision), call.recording.available. A callback naming no call of this number answers 404. provider_three also reports a transfer's new leg here (another call_control_id, the call's client_state): while the transfer waits on it, its answer or bridge makes the transfer and its hang-up gives the caller back to the agent; a warm transfer's leg gets the brief (`gather_using_speak`) on its answer and is bridged to the caller on the key 1 (any other key, or none, hangs it up). Later events of a leg change nothing. Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    get: operations['providerStatusByGet'];
    put?: never;
    /**
     * Provider callback: call progress
     * @description Moves the attempt's phone log (callStatus, providerStatus, callDuration, answeredBy, recordingUrl, endedReason) and raises its call events in the same transaction: call.started, call.answered, call.completed or call.failed (with the retry decision), call.recording.available. A callback naming no call of this number answers 404. provider_three also reports a transfer's new leg here (another call_control_id, the call's client_state): while the transfer waits on it, its answer or bridge makes the transfer and its hang-up gives the caller back to the agent; a warm transfer's leg gets the brief (`gather_using_speak`) on its answer and is bridged to the caller on the key 1 (any other key, or none, hangs it up). Later events of a leg change nothing. Called by the telephony provider, not by API clients. Verified before anything is read or written: the number exists and uses this integration, `token` is its callback token, and the provider's signature holds over the public URL and the raw body (provider_two `X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 `telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the `publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must be a call of this number. Idempotent (providers retry) and order-safe (a status only moves up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).
     */
    post: operations['providerStatus'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/sounds/hold.xml': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Provider callback: what a caller on hold hears
     * @description provider_one's `dialMusic` of a warm transfer: Plivo XML that loops the ringback (`<Play loop="0">{PUBLIC_BASE_URL}/api/telephony/sounds/ringback.wav</Play>`) until the new party took the call or the <Dial> ended.
     */
    post: operations['hold'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/telephony/sounds/ringback.wav': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The ringback a caller on hold hears
     * @description One cycle of North American ringback (440 + 480 Hz, 2 s on, 4 s off) as an 8 kHz 16-bit mono WAV, played in a loop by the hold document.
     */
    get: operations['ringback'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/dnc/add': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add the number of a call to the do-not-call list
     * @description The entry links the organization, the batch, the call record and its phone log, and keeps the call's recording URL and transcript. In the same transaction every pending call of the number in the active or paused batches of the organization becomes `do_not_call`, so it is never dialed. Afterwards the organization admins are e-mailed (one message to all of them; logged instead when SMTP_URL is unset); a mail failure does not fail the request. 400: missing or invalid fields, a phoneNumber other than the call record’s, or a number already listed. 404: batch (also a deleted one), its user, or the call of requestUUID in that batch not found. A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    post: operations['addDncEntry'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/dnc': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the do-not-call entries
     * @description Newest first. page defaults to 1, limit to 10 (at most 100).
     */
    get: operations['listDncEntries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/dnc/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import numbers into the do-not-call list from a CSV or JSON file
     * @description Every row is accounted for: added, already listed (on the list before, or earlier in the file: importing the same file twice changes nothing the second time), or rejected with its row number and reason. The upload is received whole and read through once before anything is stored: a malformed file, a CSV header without a phoneNumber column or a file with no entries answers 400 and changes nothing. Then rows are stored in chunks of 1,000, each in its own transaction under the organization's dialing lock (as DNC add): a claim in progress finishes first and every later claim sees the chunk, and dialing goes on between chunks. Each chunk also makes the pending calls of its new numbers in active or paused batches `do_not_call`. If the request fails halfway, the chunks before the failure stay imported; sending the file again is safe. No e-mail is sent for an import.
     */
    post: operations['importDncList'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/dnc/export/csv': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the organization's whole do-not-call list as CSV
     * @description Streamed, oldest entry first, as an attachment (dnc-list.csv). CRLF lines, RFC 4180 quoting, no BOM; columns phoneNumber, type, source, createdAt, _id, batchId, callRecordId, requestUUID, recordingUrl, transcript (empty for null); against formula injection a cell starting with = + - @, tab or CR gets a leading ' (numbers too: '+14155551234, which the import reads back). A failure mid-stream cuts the download short, never a file that looks complete. The file imports back as it is.
     */
    get: operations['exportDncCsv'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/dnc/export/json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the organization's whole do-not-call list as JSON
     * @description The common envelope, its data every entry (as the list shows them) oldest first, streamed as an attachment (dnc-list.json) however long the list. A failure mid-stream cuts the body short: it then does not parse. The file imports back as it is.
     */
    get: operations['exportDncJson'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/dnc/check': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tell whether a number is on the do-not-call list
     * @description The number is normalized to E.164 first, so any written form of it finds its entry. With `include=entry` a listed number also gets its whole entry in `data.entry`.
     */
    get: operations['checkDncNumber'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/dnc/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove an entry from the do-not-call list
     * @description The number may be imported and dialed again in the future. Call records already marked `do_not_call` stay so: removal does not put them back in any queue.
     */
    delete: operations['deleteDncEntry'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/batches/{userId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['listBatches'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/batch-details/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A batch with a page of its call records
     * @description A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    get: operations['getBatchDetails'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/createBatch': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a batch, optionally with its contacts
     * @description application/json: the fields below, `contacts` optional. multipart/form-data: the same fields as form fields (numbers and booleans as text, callingHour and retryPolicy as JSON text, callingNumbers, retryOn and allowedDays repeated or as one JSON array text), all before an optional CSV in `file`. Both are validated alike (400 with `errors`). Each contact needs phoneNumber (normalized to E.164; a number without + is read with its country code). Every other field is a dynamic contact field: names of 1-64 characters (letters, digits, space, _ . -), not _id, phoneLogs, createdAt; values are strings of at most 1000 characters (numbers and booleans become strings; empty values are left out); at most 50 fields per contact. A value with a NUL character or an unpaired UTF-16 surrogate rejects its contact (invalid_field). The batch and its contacts are created in one transaction: rejected rows are listed in the `contacts` report, while a request that fails (invalid field, file without a phoneNumber column or malformed, over UPLOAD_MAX_BYTES: 413, not a CSV: 415) creates no batch.
     */
    post: operations['createBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/delete-batch/{batchId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: operations['deleteBatch'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/batches/{batchId}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pause the dialing of a batch
     * @description No call of the batch is claimed once this answers; calls already placed (or being placed) finish, and their retries wait for a resume. The dialer also pauses a batch itself, with statusReason `failure_rate` (at least 5 attempts ended in the last 120 s and half or more of them failed), `no_agent` or `no_calling_number`. A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    post: operations['pauseBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/batches/{batchId}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume the dialing of a batch
     * @description Dialing continues from where it stopped (statusReason back to null); 409 when the batch has no active calling number. A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    post: operations['resumeBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/batches/{batchId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a batch: stop every call not yet placed
     * @description An active or paused batch becomes `completed` with statusReason `cancelled`. Its call records still waiting (never dialed, or waiting for a retry) are never dialed; calls already placed finish normally (they are not hung up) and are not retried. Counters stay true: callsCompleted still counts a call in flight that completes. 409 when the batch is already completed. A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    post: operations['cancelBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/batches/{batchId}/redial': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Re-dial a chosen subset of a batch as a new attempt series
     * @description The contacts whose last call ended with one of `outcomes` (default no-answer, busy, voicemail, failed; `completed` only when named) and that match `filter` and `search` (as batch details read them) become due at once, each as a new attempt series: its retry budgets (`retry`, `retryPolicy`) start again, its earlier calls stay in its phone logs. Only contacts whose calls are over are taken: never one still waiting or on a call, one withdrawn for the do-not-call list or whose number the list holds now, nor one of another batch. The same request again while the first series is under way finds nothing to re-dial (`redialed: 0`) and changes nothing. The calling window, the callee's hours and caps, and `endAt` apply as to any call. A batch that had completed becomes `active` again when contacts were re-opened (a paused one stays paused), and callsCompleted no longer counts a completed contact called again. Taken under the organization's dialing lock: a claim in progress finishes first. 400: no outcomes, filter or search, an unknown outcome, a bad filter or pattern. 409: a cancelled batch, or one whose endAt has passed. A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    post: operations['redialBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/batches/{batchId}/contacts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Append contacts to a batch
     * @description JSON contacts or a CSV upload. Every row is accounted for: counts plus one error per rejected row (invalid or missing number, invalid field, duplicate within the batch or this import, number on the do-not-call list). Each contact needs phoneNumber (normalized to E.164; a number without + is read with its country code). Every other field is a dynamic contact field: names of 1-64 characters (letters, digits, space, _ . -), not _id, phoneLogs, createdAt; values are strings of at most 1000 characters (numbers and booleans become strings; empty values are left out); at most 50 fields per contact. A value with a NUL character or an unpaired UTF-16 surrogate rejects its contact (invalid_field). Rows are committed in chunks of 5,000 together with the batch totalCalls: if the request fails halfway, the chunks before the failure stay imported. An upload is received whole before the import starts. A batch that completed on its own (queue_status `completed`, statusReason null) becomes `active` again when at least one contact is imported, in the same commit, and the dialer calls the new records; a paused batch stays paused (the records wait for a resume); an import with no contact imported changes no status. A cancelled batch (statusReason `cancelled`) takes no more contacts: 409, nothing stored (a cancel during a long import stops it at its next chunk); create a new batch. So does one that reached its endAt (statusReason `end_at_reached`). A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    post: operations['importContacts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/call/export/csv': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a batch's call records as CSV
     * @description A member reaches the batches they own; an admin or an API key reaches every batch of the organization. Any other batch answers 404, as one that does not exist.
     */
    get: operations['exportBatchCsv'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the webhooks
     * @description Newest first. page defaults to 1, limit to 10 (at most 100). Never the secrets.
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Subscribe an HTTPS endpoint to call events
     * @description Without `secret` one is generated. The secret is in this response only: it is stored sealed and never returned again. Deliveries follow Standard Webhooks: headers `webhook-id` (stable across retries), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the secret after `whsec_` base64-decoded; several space-separated during a rotation). Verify with any Standard Webhooks library or @app/webhooks. 400: invalid fields, unknown event types, a malformed secret. 422: the URL is not an allowed target (see `url`).
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get one webhook
     * @description Never the secret.
     */
    get: operations['getWebhook'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook for good
     * @description Permanent, with its delivery log. Nothing more is sent to the endpoint, retries included.
     */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    /**
     * Update a webhook
     * @description All fields optional; omitted fields stay unchanged. The new settings apply from the next delivery attempt, retries of earlier events included. `secret` is write-only and replaces the current secret at once (rotate for an overlap). `active: true` re-enables a webhook that delivery switched off and clears disabledReason and disabledAt. 400: invalid body or id. 422: the URL is not an allowed target.
     */
    patch: operations['updateWebhook'];
    trace?: never;
  };
  '/api/webhooks/{webhookId}/secret/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret
     * @description Generates a new secret, shown in this response only. During the grace period (gracePeriodSeconds, default 86400, at most 604800) deliveries carry two signatures, one with the new and one with the previous secret, so receivers can switch without losing events; 0 drops the previous secret at once.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a webhook's deliveries with their attempts
     * @description Newest first; page defaults to 1, limit to 10 (at most 100). Filters: status, eventType, since/until (creation time). Each delivery lists its attempts: trigger, status, response code, duration, error class (timeout, dns, tls, connect, ssrf_blocked, http_status) and the next attempt it scheduled. Response bodies are kept in the log but never returned. `sending` is a delivery whose attempt is running now. Deliveries and their attempts are kept for WEBHOOK_RETENTION_DAYS (30 by default) after their event, once they have ended; one still pending or held is kept until it ends. 404: no such webhook in the organization.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhookId}/deliveries/{deliveryId}/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send one delivery again now
     * @description A new attempt with trigger `manual`, whatever the delivery status (also while the webhook's circuit is open). A manual attempt that fails continues the retry schedule if attempts remain, else the delivery stays failed. 404: no such webhook or delivery; 409: an attempt of it is running.
     */
    post: operations['retryWebhookDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhookId}/recover': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Re-send every delivery that failed in a time window
     * @description Every delivery of the webhook that ended `failed` at or after `since` (and before `until`) is queued again with trigger `recover`, in the background; the answer says how many. Deliveries that eventually succeeded are not re-sent. 404: no such webhook.
     */
    post: operations['recoverWebhookDeliveries'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{webhookId}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a signed test event to the webhook
     * @description A `webhook.test` event delivered to this webhook only, through the same pipeline as call events (signed, retried, listed in its deliveries). An inactive webhook gets nothing (the delivery is cancelled). 404: no such webhook.
     */
    post: operations['testWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['listUsers'];
    put?: never;
    post: operations['createUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['listApiKeys'];
    put?: never;
    post: operations['createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    UserDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example Ada Lovelace */
      name: string;
      /** @example ada@example.com */
      email: string;
      /**
       * @example admin
       * @enum {string}
       */
      role: 'admin' | 'member';
      /**
       * @example [
       *       "calls",
       *       "dnc"
       *     ]
       */
      permissions: (
        | 'calls'
        | 'phones'
        | 'dnc'
        | 'agents'
        | 'knowledgeBase'
        | 'messaging'
        | 'videoAgents'
        | 'webhooks'
      )[];
      /** @example 65f1c0ffee0123456789abce */
      organizationId: string;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
    };
    SessionDto: {
      /** @description Send as Authorization: Bearer <accessToken>. HS256 JWT, short-lived. */
      accessToken: string;
      user: components['schemas']['UserDto'];
    };
    RegisterDto: {
      /** @example Acme Outbound */
      organizationName: string;
      /** @example Ada Lovelace */
      name: string;
      /** @example ada@example.com */
      email: string;
      /** @example correct horse battery staple */
      password: string;
    };
    FieldErrorDto: {
      /** @example email */
      field: string;
      /** @example email must be an email */
      message: string;
    };
    ErrorEnvelopeDto: {
      /** @example Validation failed */
      message: string;
      /** @example false */
      status: boolean;
      /**
       * @description Equals the HTTP status
       * @example 400
       */
      code: number;
      /**
       * @description What was wrong
       * @example email must be an email
       */
      errorMessage: string;
      /** @description Present on validation failures */
      errors?: components['schemas']['FieldErrorDto'][];
      /** @description On 5xx answers: the id of the matching log line */
      requestId?: string;
    };
    LoginDto: {
      /** @example ada@example.com */
      email: string;
      /** @example correct horse battery staple */
      password: string;
    };
    LivenessDto: {
      /**
       * @description Seconds since the process started
       * @example 12.5
       */
      uptimeSeconds: number;
    };
    ReadinessDto: {
      /**
       * @example up
       * @enum {string}
       */
      database: 'up' | 'down' | 'not configured';
      /**
       * @example not configured
       * @enum {string}
       */
      redis: 'up' | 'down' | 'not configured';
    };
    PhoneNumberDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example 65f1c0ffee0123456789abce */
      userId: string;
      /** @example +14155551234 */
      phoneNumber: string;
      /** @enum {string} */
      integration: 'provider_one' | 'provider_two' | 'provider_three';
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
    };
    AddPhoneDto: {
      /**
       * @description Owner: a user of the organization
       * @example 65f1c0ffee0123456789abcd
       */
      userId: string;
      /**
       * @description With country code; `+` optional. Must be owned by the provider account. Stored in E.164.
       * @example +14155551234
       */
      phoneNumber: string;
      /**
       * @description provider_one = Plivo, provider_two = Twilio, provider_three = Telnyx
       * @enum {string}
       */
      integration: 'provider_one' | 'provider_two' | 'provider_three';
      /**
       * @description Auth token (provider_one, provider_two) or API key (provider_three). Stored encrypted, never returned.
       * @example your-auth-token
       */
      authToken: string;
      /**
       * @description Auth id (provider_one), account SID (provider_two), or Call Control Application id (provider_three; send an empty string to have one created).
       * @example ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX
       */
      accSId: string;
      /**
       * @description provider_three only: the Telnyx account's public key (Mission Control → Keys & Credentials → Public Key), base64 of 32 bytes, which verifies the Ed25519 signature of this number's callbacks. Without it the server's PROVIDER_THREE_PUBLIC_KEY verifies them, which fits only numbers of the account that key belongs to. No Telnyx API returns it, so it cannot be checked here: a wrong key means every callback of the number is refused (401). Not secret: listed with the number.
       * @example hxBl01p4c/aSa2ep5sch9aWeQgMwziPhIpFHntyYIFs=
       */
      publicKey?: string;
      /**
       * @description The provider account's calls per second, when it is not the provider's default (Plivo 2, Twilio 1, Telnyx 1): every number of the account, in every batch and organization, shares it, so the provider never queues a call to ring later than it was allowed. Given here, it replaces the account's value; left out, the account keeps what it had. Listed with each number as `accountCallsPerSecond`.
       * @example 5
       */
      accountCallsPerSecond?: number;
    };
    PhoneNumberListItemDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example 65f1c0ffee0123456789abce */
      userId: string;
      /** @example +14155551234 */
      phoneNumber: string;
      /** @enum {string} */
      integration: 'provider_one' | 'provider_two' | 'provider_three';
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /**
       * @description Only active numbers are dialed from
       * @enum {string}
       */
      status: 'active' | 'inactive';
      /**
       * @description provider_three: the Telnyx public key the number was added with, which verifies its callbacks (public, shown so it can be compared with Mission Control's); null: the server's PROVIDER_THREE_PUBLIC_KEY verifies them, or another integration.
       * @example hxBl01p4c/aSa2ep5sch9aWeQgMwziPhIpFHntyYIFs=
       */
      publicKey: string | null;
      /**
       * @description Calls per second of the number's provider account, shared by all its numbers (the provider's default unless add-phone set `accountCallsPerSecond`)
       * @example 1
       */
      accountCallsPerSecond: number;
    };
    WiringDriftDto: {
      /** @example VoiceUrl */
      field: string;
      expected: string | null;
      actual: string | null;
    };
    PhoneVerificationDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example +14155551234 */
      phoneNumber: string;
      /** @enum {string} */
      integration: 'provider_one' | 'provider_two' | 'provider_three';
      /** @description The stored credentials are still accepted by the provider */
      credentialsValid: boolean;
      /** @description The number is still on the provider account */
      numberOwned: boolean;
      /** @description The provider still sends this number’s calls to Switchboard */
      webhooksInSync: boolean;
      /** @description What the provider holds that differs from our wiring */
      drift: components['schemas']['WiringDriftDto'][];
      /** @description True when `repair=true` re-applied the wiring */
      repaired: boolean;
      /** @example 2026-11-22T10:00:00.000Z */
      checkedAt: string;
    };
    DeletePhoneResponseDto: {
      /** @example true */
      success: boolean;
      /** @example 65f1c0ffee0123456789abcd */
      deletedId: string;
    };
    AnalysisFieldDto: {
      /**
       * @description Key of the value in the phone log’s `analysis` object: a letter, then letters, digits or _ (at most 64); unique within the agent
       * @example appointment_booked
       */
      name: string;
      /**
       * @example boolean
       * @enum {string}
       */
      type: 'string' | 'number' | 'boolean' | 'enum';
      /**
       * @description What the value means: the model reads it to fill the field
       * @example Whether the callee agreed to an appointment
       */
      description: string;
      /**
       * @description The allowed values: required for type enum (1 to 50 distinct texts of 1 to 100 characters), refused for any other type
       * @example [
       *       "morning",
       *       "afternoon"
       *     ]
       */
      options?: string[];
    };
    AgentDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example Renewals agent */
      agent_name: string;
      /** @example female */
      gender: string | null;
      /**
       * @description Voice id; null: the text-to-speech engine’s default
       * @example alloy
       */
      voice: string | null;
      /**
       * @example single_prompt
       * @enum {string}
       */
      conversationType: 'single_prompt';
      /** @example You call customers whose contract ends this month. */
      prompt: string;
      /** @example Hello, this is Ada from Acme. */
      greeting: string | null;
      /**
       * @description BCP 47 language tag
       * @example en-US
       */
      language: string;
      /**
       * @example [
       *       "65f1c0ffee0123456789abcd"
       *     ]
       */
      knowledgeBaseIds: string[];
      /** @example Please call us back. */
      voicemailMessage: string | null;
      /**
       * @description E.164
       * @example +14155550100
       */
      transferNumber: string | null;
      /**
       * @example warm
       * @enum {string}
       */
      transferMode: 'cold' | 'warm';
      /** @example 600 */
      maxCallSeconds: number;
      /** @example true */
      interruptible: boolean;
      /**
       * @description Digits typed for collect_digits reach the webhook alone (call.completed's `collected_digits`), kept sealed at rest; the model, the transcript and batch details see only how many were typed
       * @example false
       */
      privateDigits: boolean;
      /**
       * @example agent
       * @enum {string}
       */
      firstSpeaker: 'agent' | 'callee';
      /**
       * @example navigate
       * @enum {string}
       */
      onIvr: 'navigate' | 'hang_up';
      /**
       * @example announce
       * @enum {string}
       */
      onCallScreening: 'announce' | 'hang_up';
      /** @example 2500 */
      calleeFirstWaitMs: number;
      analysisFields: components['schemas']['AnalysisFieldDto'][];
      /**
       * @description The organization’s default agent: it speaks on batches created without agentId, and on batches whose agent was deleted. Exactly one agent of an organization is its default.
       * @example true
       */
      isDefault: boolean;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /** @example 2026-11-22T10:00:00.000Z */
      updatedAt: string;
    };
    AgentListDto: {
      /** @description Newest first */
      docs: components['schemas']['AgentDto'][];
      /** @example 1 */
      page: number;
      /** @example 10 */
      limit: number;
      /** @example 3 */
      totalPages: number;
      /** @example 21 */
      totalDocs: number;
    };
    CreateAgentDto: {
      /**
       * @description Display name
       * @example Renewals agent
       */
      agent_name: string;
      /**
       * @description Gender of the voice, as the client names it (free text)
       * @example female
       */
      gender?: string | null;
      /**
       * @description Voice id of the configured text-to-speech engine: one of `GET /api/video-agent/voices?mode=audio` (the catalogue), or any other id the engine knows (a cloned or self-hosted voice); null or absent: the engine’s default (TTS_VOICE)
       * @example alloy
       */
      voice?: string | null;
      /**
       * @description `single_prompt`: one prompt steers the whole conversation (the only type the voice runtime runs; any other value answers 400)
       * @default single_prompt
       * @enum {string}
       */
      conversationType?: 'single_prompt';
      /**
       * @description System prompt of the conversation
       * @default
       * @example You call customers whose contract ends this month and offer the renewal.
       */
      prompt?: string;
      /**
       * @description First words the agent says once the call is answered
       * @example Hello, this is Ada from Acme. Do you have a minute?
       */
      greeting?: string | null;
      /**
       * @description BCP 47 language tag of the conversation, stored in canonical form (`EN-us` → `en-US`); a malformed tag answers 400
       * @default en-US
       * @example en-US
       */
      language?: string;
      /**
       * @description Knowledge base ids whose passages the agent is given (at most 20, no repeats). Each must be a knowledge base of the organization (GET /api/knowledgeBase), else 400 naming knowledgeBaseIds. Deleting a knowledge base removes its id from every agent.
       * @default []
       * @example [
       *       "65f1c0ffee0123456789abcd"
       *     ]
       */
      knowledgeBaseIds?: string[];
      /**
       * @description Left after the beep when an answering machine picks up; null: hang up
       * @example Hi, this is Acme about your renewal. Please call us back at 415 555 0100.
       */
      voicemailMessage?: string | null;
      /**
       * @description Where the agent may transfer the call: with country code, `+` optional; stored in E.164. An invalid number answers 400; null: no transfer
       * @example +14155550100
       */
      transferNumber?: string | null;
      /**
       * @description How a transfer to transferNumber is made. cold: the colleague is rung and the caller put through as soon as they pick up. warm: the colleague first hears a brief the agent wrote (who calls and what they need; also call.transferred's `summary`) and presses 1 to take the call; if they decline, hang up or do not answer, the caller is given back to the agent, who says so and goes on. provider_two and provider_one brief through the transfer's <Dial>; provider_three calls the colleague on a leg of its own and bridges it, the caller hearing ringing on the agent's stream meanwhile
       * @default cold
       * @enum {string}
       */
      transferMode?: 'cold' | 'warm';
      /**
       * @description Longest call in seconds (30 to 7200); the call is ended politely when it is reached
       * @default 600
       * @example 600
       */
      maxCallSeconds?: number;
      /**
       * @description The agent can have the callee type a number on the keypad (its collect_digits tool: an account number, a PIN), gathered exactly until #, the number of digits asked, or a 6-second pause. false: the model is given the digits. true: the model hears only how many were typed, and the transcript too; the digits reach your webhook alone, in call.completed's `collected_digits`. Kept sealed at rest (AES-256-GCM, on the call and in the webhook outbox) and opened only to send that webhook; batch details show them masked (•••• for four digits)
       * @default false
       * @example false
       */
      privateDigits?: boolean;
      /**
       * @description Whether the callee can interrupt the agent (barge-in)
       * @default true
       * @example true
       */
      interruptible?: boolean;
      /**
       * @description Who speaks first once the call is answered. agent: the greeting plays as soon as the callee's audio arrives. callee: the agent waits for the callee's first words ("Hello?") and greets once they stop, or after calleeFirstWaitMs of silence; those words are kept in the transcript, not answered
       * @default agent
       * @enum {string}
       */
      firstSpeaker?: 'agent' | 'callee';
      /**
       * @description With firstSpeaker callee: how long (ms) a silent callee is waited for before the greeting
       * @default 2500
       * @example 2500
       */
      calleeFirstWaitMs?: number;
      /**
       * @description When an automated menu answers ("For sales, press 1"; answer_outcome ivr): navigate — the model is told it hears a menu and picks the option that reaches a person with press_keys — or hang_up. (A voicemail gets voicemailMessage after its beep, or the hang-up when there is none; a full mailbox and a fax are always hung up on.)
       * @default navigate
       * @enum {string}
       */
      onIvr?: 'navigate' | 'hang_up';
      /**
       * @description When a call-screening assistant answers ("Please state your name and the reason for your call"; answer_outcome call_screening): announce — the model is told to say briefly who calls, for whom and why, and wait for the person — or hang_up
       * @default announce
       * @enum {string}
       */
      onCallScreening?: 'announce' | 'hang_up';
      /**
       * @description Values the post-call analysis extracts from each conversation (at most 50, names unique)
       * @default []
       */
      analysisFields?: components['schemas']['AnalysisFieldDto'][];
      /**
       * @description true makes this the organization’s default agent (the one a batch without agentId uses), in place of the current one. An organization’s first agent is always its default, whatever is sent.
       * @example false
       */
      isDefault?: boolean;
    };
    UpdateAgentDto: {
      /**
       * @description Display name
       * @example Renewals agent
       */
      agent_name?: string;
      /**
       * @description Gender of the voice, as the client names it (free text)
       * @example female
       */
      gender?: string | null;
      /**
       * @description Voice id of the configured text-to-speech engine: one of `GET /api/video-agent/voices?mode=audio` (the catalogue), or any other id the engine knows (a cloned or self-hosted voice); null or absent: the engine’s default (TTS_VOICE)
       * @example alloy
       */
      voice?: string | null;
      /**
       * @description `single_prompt`: one prompt steers the whole conversation (the only type the voice runtime runs; any other value answers 400)
       * @default single_prompt
       * @enum {string}
       */
      conversationType?: 'single_prompt';
      /**
       * @description System prompt of the conversation
       * @default
       * @example You call customers whose contract ends this month and offer the renewal.
       */
      prompt?: string;
      /**
       * @description First words the agent says once the call is answered
       * @example Hello, this is Ada from Acme. Do you have a minute?
       */
      greeting?: string | null;
      /**
       * @description BCP 47 language tag of the conversation, stored in canonical form (`EN-us` → `en-US`); a malformed tag answers 400
       * @default en-US
       * @example en-US
       */
      language?: string;
      /**
       * @description Knowledge base ids whose passages the agent is given (at most 20, no repeats). Each must be a knowledge base of the organization (GET /api/knowledgeBase), else 400 naming knowledgeBaseIds. Deleting a knowledge base removes its id from every agent.
       * @default []
       * @example [
       *       "65f1c0ffee0123456789abcd"
       *     ]
       */
      knowledgeBaseIds?: string[];
      /**
       * @description Left after the beep when an answering machine picks up; null: hang up
       * @example Hi, this is Acme about your renewal. Please call us back at 415 555 0100.
       */
      voicemailMessage?: string | null;
      /**
       * @description Where the agent may transfer the call: with country code, `+` optional; stored in E.164. An invalid number answers 400; null: no transfer
       * @example +14155550100
       */
      transferNumber?: string | null;
      /**
       * @description How a transfer to transferNumber is made. cold: the colleague is rung and the caller put through as soon as they pick up. warm: the colleague first hears a brief the agent wrote (who calls and what they need; also call.transferred's `summary`) and presses 1 to take the call; if they decline, hang up or do not answer, the caller is given back to the agent, who says so and goes on. provider_two and provider_one brief through the transfer's <Dial>; provider_three calls the colleague on a leg of its own and bridges it, the caller hearing ringing on the agent's stream meanwhile
       * @default cold
       * @enum {string}
       */
      transferMode?: 'cold' | 'warm';
      /**
       * @description Longest call in seconds (30 to 7200); the call is ended politely when it is reached
       * @default 600
       * @example 600
       */
      maxCallSeconds?: number;
      /**
       * @description The agent can have the callee type a number on the keypad (its collect_digits tool: an account number, a PIN), gathered exactly until #, the number of digits asked, or a 6-second pause. false: the model is given the digits. true: the model hears only how many were typed, and the transcript too; the digits reach your webhook alone, in call.completed's `collected_digits`. Kept sealed at rest (AES-256-GCM, on the call and in the webhook outbox) and opened only to send that webhook; batch details show them masked (•••• for four digits)
       * @default false
       * @example false
       */
      privateDigits?: boolean;
      /**
       * @description Whether the callee can interrupt the agent (barge-in)
       * @default true
       * @example true
       */
      interruptible?: boolean;
      /**
       * @description Who speaks first once the call is answered. agent: the greeting plays as soon as the callee's audio arrives. callee: the agent waits for the callee's first words ("Hello?") and greets once they stop, or after calleeFirstWaitMs of silence; those words are kept in the transcript, not answered
       * @default agent
       * @enum {string}
       */
      firstSpeaker?: 'agent' | 'callee';
      /**
       * @description With firstSpeaker callee: how long (ms) a silent callee is waited for before the greeting
       * @default 2500
       * @example 2500
       */
      calleeFirstWaitMs?: number;
      /**
       * @description When an automated menu answers ("For sales, press 1"; answer_outcome ivr): navigate — the model is told it hears a menu and picks the option that reaches a person with press_keys — or hang_up. (A voicemail gets voicemailMessage after its beep, or the hang-up when there is none; a full mailbox and a fax are always hung up on.)
       * @default navigate
       * @enum {string}
       */
      onIvr?: 'navigate' | 'hang_up';
      /**
       * @description When a call-screening assistant answers ("Please state your name and the reason for your call"; answer_outcome call_screening): announce — the model is told to say briefly who calls, for whom and why, and wait for the person — or hang_up
       * @default announce
       * @enum {string}
       */
      onCallScreening?: 'announce' | 'hang_up';
      /**
       * @description Values the post-call analysis extracts from each conversation (at most 50, names unique)
       * @default []
       */
      analysisFields?: components['schemas']['AnalysisFieldDto'][];
      /**
       * @description true makes this agent the organization’s default in place of the current one (one transaction: there is never zero or two). false on the default agent answers 409: move the default by making another agent default. false on another agent changes nothing.
       * @example true
       */
      isDefault?: boolean;
    };
    VoiceDto: {
      /**
       * @description Voice id: what a video agent’s `voiceId` (and, for audio voices, a voice agent’s `voice`) names
       * @example 21m00Tcm4TlvDq8ikWAM
       */
      id: string;
      /** @example Rachel */
      name: string;
      /**
       * @description BCP 47 tag of the language the voice speaks
       * @example en-US
       */
      language: string;
      /**
       * @description `female`, `male` or `neutral` by default
       * @example female
       */
      gender: string;
      /**
       * @description The engine that speaks it: `offline` (eSpeak NG), `openai` (OpenAI-compatible speech) or `elevenlabs` by default, as TTS_PROVIDER names them
       * @example elevenlabs
       */
      provider: string;
    };
    VideoAgentDto: {
      /**
       * @description Video agent id
       * @example 65f1c0ffee0123456789abcd
       */
      id: string;
      /** @example Onboarding guide */
      name: string;
      /**
       * @example video
       * @enum {string}
       */
      mode: 'audio' | 'video';
      /**
       * @description Voice id of the catalogue
       * @example 21m00Tcm4TlvDq8ikWAM
       */
      voiceId: string;
      /**
       * @description BCP 47 language tag
       * @example en-US
       */
      language: string;
      /** @example You welcome new customers. */
      prompt: string;
      /** @example Hi, I am Ada from Acme. */
      greeting: string | null;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /** @example 2026-11-22T10:00:00.000Z */
      updatedAt: string;
    };
    CreateVideoAgentDto: {
      /**
       * @description Display name
       * @example Onboarding guide
       */
      name: string;
      /**
       * @description How the agent appears. `audio`: the agent is heard only, spoken by a text-to-speech engine (the voices a voice agent’s `voice` may name too). `video`: a talking avatar; its voices come from engines that return word timing with the audio (ElevenLabs, the offline eSpeak NG), which lip-sync needs.
       * @default video
       * @enum {string}
       */
      mode?: 'audio' | 'video';
      /**
       * @description A voice of `GET /api/video-agent/voices?mode=` this agent’s mode; any other answers 400
       * @example 21m00Tcm4TlvDq8ikWAM
       */
      voiceId: string;
      /**
       * @description BCP 47 language tag the agent speaks, stored in canonical form (`EN-us` → `en-US`); absent: the voice’s language
       * @example en-US
       */
      language?: string;
      /**
       * @description System prompt of the conversation
       * @default
       * @example You welcome new customers and walk them through their first week.
       */
      prompt?: string;
      /**
       * @description First words the agent says; null or absent: it waits to be spoken to
       * @example Hi, I am Ada from Acme. How can I help?
       */
      greeting?: string | null;
    };
    KnowledgeBaseDocumentDto: {
      /**
       * @description Display name, unique within the base
       * @example pricing.pdf
       */
      fileName: string;
      /**
       * @description Signed download URL: no credentials needed, valid for STORAGE_URL_TTL_SECONDS (an hour by default) from this response; fetch the base again for a fresh one
       * @example https://api.example.com/api/files/kbdoc-65f1c0ffee0123456789abcd-0a1b2c3d4e5f6071?expires=1767225600&name=pricing.pdf&type=application%2Fpdf&signature=kJ3v
       */
      url: string;
      /** @example 2026-11-22T10:00:00.000Z */
      uploadedAt: string;
    };
    KnowledgeBaseDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example Product FAQ */
      knowledgeBaseName: string;
      /** @example Answers to the questions customers ask most */
      description: string;
      /**
       * @description The language of its documents and questions, for full-text search: a PostgreSQL text search configuration (stemming, so "refunds" finds "refund", and stop words), or `simple` (words as written) for a base mixing languages. Changing it re-indexes the base’s passages.
       * @example english
       * @enum {string}
       */
      language:
        | 'simple'
        | 'arabic'
        | 'armenian'
        | 'basque'
        | 'catalan'
        | 'danish'
        | 'dutch'
        | 'english'
        | 'finnish'
        | 'french'
        | 'german'
        | 'greek'
        | 'hindi'
        | 'hungarian'
        | 'indonesian'
        | 'irish'
        | 'italian'
        | 'lithuanian'
        | 'nepali'
        | 'norwegian'
        | 'portuguese'
        | 'romanian'
        | 'russian'
        | 'serbian'
        | 'spanish'
        | 'swedish'
        | 'tamil'
        | 'turkish'
        | 'yiddish';
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /** @example 2026-11-22T10:05:00.000Z */
      updatedAt: string;
      /** @description Every document of the base, oldest upload first */
      documents: components['schemas']['KnowledgeBaseDocumentDto'][];
    };
    KnowledgeBaseSummaryDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example Product FAQ */
      knowledgeBaseName: string;
      /** @example Answers to the questions customers ask most */
      description: string;
      /**
       * @description The language of its documents and questions, for full-text search: a PostgreSQL text search configuration (stemming, so "refunds" finds "refund", and stop words), or `simple` (words as written) for a base mixing languages. Changing it re-indexes the base’s passages.
       * @example english
       * @enum {string}
       */
      language:
        | 'simple'
        | 'arabic'
        | 'armenian'
        | 'basque'
        | 'catalan'
        | 'danish'
        | 'dutch'
        | 'english'
        | 'finnish'
        | 'french'
        | 'german'
        | 'greek'
        | 'hindi'
        | 'hungarian'
        | 'indonesian'
        | 'irish'
        | 'italian'
        | 'lithuanian'
        | 'nepali'
        | 'norwegian'
        | 'portuguese'
        | 'romanian'
        | 'russian'
        | 'serbian'
        | 'spanish'
        | 'swedish'
        | 'tamil'
        | 'turkish'
        | 'yiddish';
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /** @example 2026-11-22T10:05:00.000Z */
      updatedAt: string;
    };
    PaginationDto: {
      /** @example 42 */
      total: number;
      /** @example 1 */
      page: number;
      /** @example 10 */
      limit: number;
      /** @example 5 */
      totalPages: number;
    };
    KnowledgeBaseDocumentDetailsDto: {
      /**
       * @description Display name, unique within the base
       * @example pricing.pdf
       */
      fileName: string;
      /**
       * @description Signed download URL: no credentials needed, valid for STORAGE_URL_TTL_SECONDS (an hour by default) from this response; fetch the base again for a fresh one
       * @example https://api.example.com/api/files/kbdoc-65f1c0ffee0123456789abcd-0a1b2c3d4e5f6071?expires=1767225600&name=pricing.pdf&type=application%2Fpdf&signature=kJ3v
       */
      url: string;
      /** @example 2026-11-22T10:00:00.000Z */
      uploadedAt: string;
      /**
       * @description Bytes
       * @example 48213
       */
      size: number;
      /**
       * @description Decided from the file’s bytes and name
       * @example application/pdf
       */
      contentType: string;
      /**
       * @description `processing`: its text is being extracted and indexed; `ready`: searchable; `failed`: its text could not be extracted (statusReason says why)
       * @example ready
       * @enum {string}
       */
      status: 'processing' | 'ready' | 'failed';
      /**
       * @description Why extraction failed; null unless status is failed
       * @example null
       */
      statusReason: string | null;
    };
    PassageDto: {
      /**
       * @description The document the passage comes from
       * @example pricing.pdf
       */
      fileName: string;
      /**
       * @description About 1,000 characters of the document’s text
       * @example Refunds are paid within thirty days of the request…
       */
      text: string;
      /**
       * @description Relevance: the reciprocal rank fusion of its places by words and by meaning (each place p counts 1/(60 + p), half that by the offline embedding); higher is better, comparable across bases
       * @example 0.032
       */
      score: number;
    };
    MessagingIntegrationDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example 106540352242922 */
      phoneNumberId: string;
      /**
       * @description E.164, from the platform
       * @example +15550967852
       */
      phoneNumber: string;
      /** @example Acme support */
      displayName: string;
      /**
       * @description connected; reauth_required once the platform refused the access token (code 190): update the integration with a new accessToken
       * @example connected
       * @enum {string}
       */
      status: 'connected' | 'reauth_required';
      /** @example 102290129340398 */
      businessAccountId: string;
      /**
       * @description The per-number webhook URL last set through update-webhook-url
       * @example https://hooks.example.com/messaging
       */
      webhookUrl: string | null;
      /** @example 2026-03-01T12:00:00.000Z */
      createdAt: string;
      /** @example 2026-03-01T12:00:00.000Z */
      updatedAt: string;
    };
    CreateMessagingIntegrationDto: {
      /**
       * @description Id of the business phone number on the messaging platform
       * @example 106540352242922
       */
      phoneNumberId: string;
      /**
       * @description A system-user access token of the business account (printable ASCII without spaces, as the platform issues them: it travels in a header); stored encrypted, never returned
       * @example EAAGm0PX4ZCpsBAKZCZAo2ZB0ZC
       */
      accessToken: string;
      /**
       * @description Id of the business account (WABA) the number belongs to
       * @example 102290129340398
       */
      businessAccountId: string;
      /**
       * @description Our display name of the number; absent: the platform’s verified name
       * @example Acme support
       */
      displayName?: string;
    };
    UpdateMessagingIntegrationDto: {
      /**
       * @description A system-user access token of the business account (printable ASCII without spaces, as the platform issues them: it travels in a header); stored encrypted, never returned
       * @example EAAGm0PX4ZCpsBAKZCZAo2ZB0ZC
       */
      accessToken?: string;
      /**
       * @description Id of the business account (WABA) the number belongs to
       * @example 102290129340398
       */
      businessAccountId?: string;
      /**
       * @description Our display name of the number; absent: the platform’s verified name
       * @example Acme support
       */
      displayName?: string;
    };
    MessagingWebhookUrlDto: {
      /** @example 106540352242922 */
      phoneNumberId: string;
      /** @example https://hooks.example.com/messaging */
      webhookUrl: string;
    };
    UpdateMessagingWebhookUrlDto: {
      /**
       * @description A connected business number
       * @example 106540352242922
       */
      phoneNumberId: string;
      /**
       * @description Public https URL that receives this number’s incoming messages and statuses (the platform allows 200 characters)
       * @example https://hooks.example.com/messaging
       */
      webhookUrl: string;
    };
    MessagingNumberValidityDto: {
      /**
       * @description E.164 when the number parses, else the digits as sent with a leading `+`
       * @example +14155552671
       */
      phoneNumber: string;
      /** @example true */
      isValid: boolean;
    };
    ValidateMessagingNumberDto: {
      /**
       * @description With its country code; `+`, spaces, dots, dashes and brackets are allowed
       * @example +14155552671
       */
      phoneNumber: string;
    };
    MessagingTemplateDto: {
      /**
       * @description The platform’s template id
       * @example 1279048723318420
       */
      id: string;
      /** @example order_update */
      name: string;
      /** @example en_US */
      language: string;
      /**
       * @description UTILITY, MARKETING or AUTHENTICATION
       * @example UTILITY
       */
      category: string;
      /**
       * @description APPROVED, PENDING, REJECTED, PAUSED, …
       * @example APPROVED
       */
      status: string;
      /**
       * @example POSITIONAL
       * @enum {string}
       */
      parameterFormat: 'POSITIONAL' | 'NAMED';
      /**
       * @description Business account of the template
       * @example 102290129340398
       */
      businessAccountId: string;
    };
    TemplateVariableDto: {
      /**
       * @example body
       * @enum {string}
       */
      component: 'header' | 'body' | 'button';
      /**
       * @description Position of `{{1}}`-style variables
       * @example 1
       */
      index?: number;
      /**
       * @description Name of `{{name}}` variables
       * @example first_name
       */
      name?: string;
      /**
       * @description Position of the button among the template’s buttons (button variables)
       * @example 0
       */
      buttonIndex?: number;
      /**
       * @description The example registered with the template, to prefill
       * @example Ana
       */
      example?: string;
    };
    TemplateVariablesDto: {
      /** @example 1279048723318420 */
      templateId: string;
      /** @example order_update */
      name: string;
      /** @example en_US */
      language: string;
      /**
       * @example POSITIONAL
       * @enum {string}
       */
      parameterFormat: 'POSITIONAL' | 'NAMED';
      variables: components['schemas']['TemplateVariableDto'][];
    };
    CreatedMessagingAgentDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example Support bot */
      agentName: string;
      /** @example 106540352242922 */
      phoneNumberId: string;
      /**
       * @example active
       * @enum {string}
       */
      status: 'active';
      /** @example 2026-03-01T12:00:00.000Z */
      createdAt: string;
    };
    CreateMessagingAgentDto: {
      /** @example Support bot */
      agentName: string;
      /**
       * @description A connected business number (POST /api/messaging/messaging-integration)
       * @example 106540352242922
       */
      phoneNumberId: string;
      /** @example You answer questions about Acme orders, briefly and politely. */
      systemPrompt: string;
      /**
       * @description Sent when a conversation starts
       * @example Hi! I am Acme’s assistant. How can I help?
       */
      welcomeMessage?: string;
      /**
       * @description Knowledge bases of the organization whose passages the agent is given
       * @example [
       *       "65f1c0ffee0123456789abcd"
       *     ]
       */
      knowledgeBase?: string[];
      /**
       * @description Absent: LLM_MODEL
       * @example gpt-4o-mini
       */
      model?: string;
      /** @example 0.3 */
      temperature?: number;
    };
    MessagingAgentDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example Support bot */
      agentName: string;
      /** @example 106540352242922 */
      phoneNumberId: string;
      /**
       * @example active
       * @enum {string}
       */
      status: 'active';
      /** @example 2026-03-01T12:00:00.000Z */
      createdAt: string;
      /** @example You answer questions about Acme orders. */
      systemPrompt: string;
      /** @example Hi! How can I help? */
      welcomeMessage: string | null;
      /**
       * @example [
       *       "65f1c0ffee0123456789abcd"
       *     ]
       */
      knowledgeBase: string[];
      /** @example gpt-4o-mini */
      model: string | null;
      /** @example 0.3 */
      temperature: number | null;
      /** @example 2026-03-01T12:00:00.000Z */
      updatedAt: string;
    };
    UpdateMessagingAgentDto: {
      /** @example Support bot */
      agentName?: string;
      /**
       * @description A connected business number (POST /api/messaging/messaging-integration)
       * @example 106540352242922
       */
      phoneNumberId?: string;
      /** @example You answer questions about Acme orders, briefly and politely. */
      systemPrompt?: string;
      /**
       * @description Sent when a conversation starts
       * @example Hi! I am Acme’s assistant. How can I help?
       */
      welcomeMessage?: string;
      /**
       * @description Knowledge bases of the organization whose passages the agent is given
       * @example [
       *       "65f1c0ffee0123456789abcd"
       *     ]
       */
      knowledgeBase?: string[];
      /**
       * @description Absent: LLM_MODEL
       * @example gpt-4o-mini
       */
      model?: string;
      /** @example 0.3 */
      temperature?: number;
    };
    MessagingConversationDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /**
       * @description The business number written to
       * @example 106540352242922
       */
      phoneNumberId: string;
      /**
       * @description The customer's phone number (digits), when the platform shares it: a customer with a WhatsApp username may be known by customerUserId only
       * @example 16505551234
       */
      customerWaId: string | null;
      /**
       * @description The customer's business-scoped user id: the platform's key for them since 2026, sent with every message (null on conversations from before). Replies go to the phone number when known, else to this id
       * @example US.13491208655302741918
       */
      customerUserId: string | null;
      /** @example Sheena Nelson */
      customerName: string | null;
      /**
       * @description WhatsApp username
       * @example sheena.n
       */
      customerUsername: string | null;
      /**
       * @description The customer's latest message: free text may be sent for 24 hours after it
       * @example 2026-03-01T12:00:00.000Z
       */
      lastCustomerMessageAt: string;
      /**
       * @description Within 24 hours of the customer’s latest message
       * @example true
       */
      windowOpen: boolean;
      /**
       * @description An answer was due outside the 24-hour window and was not sent: only a template (POST /api/messaging/conversations/{id}/template) reaches the customer now
       * @example false
       */
      needsTemplate: boolean;
      /** @example 2026-03-01T12:00:05.000Z */
      lastMessageAt: string;
      /** @example 2026-03-01T12:00:00.000Z */
      createdAt: string;
    };
    MessagingConversationListDto: {
      /** @description Latest activity first */
      docs: components['schemas']['MessagingConversationDto'][];
      /** @example 1 */
      page: number;
      /** @example 10 */
      limit: number;
      /** @example 3 */
      totalPages: number;
      /** @example 21 */
      totalDocs: number;
    };
    MessagingMediaDto: {
      /**
       * @description The platform's media id
       * @example 1037543291543636
       */
      id: string;
      /**
       * @example image
       * @enum {string}
       */
      type: 'image' | 'audio' | 'video' | 'document' | 'sticker';
      /** @example image/jpeg */
      mimeType: string | null;
      /**
       * @description The file's SHA-256 as the platform reported it
       * @example b1e9a3f0c5d4e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1
       */
      sha256: string | null;
      /** @example Is this the lounge? */
      caption: string | null;
      /**
       * @description Documents
       * @example invoice.pdf
       */
      filename: string | null;
      /**
       * @description Audio recorded in the app (a voice note)
       * @example false
       */
      voice: boolean;
      /**
       * @description Audio: what the voice runtime's speech-to-text heard (null until heard, or not heard)
       * @example what time do you open on sunday
       */
      transcript: string | null;
      /**
       * @description Audio: whether it was heard (failed: not downloaded, not Ogg Opus, nothing recognised); null until the agent answers it
       * @example done
       * @enum {string|null}
       */
      transcription: 'done' | 'failed' | null;
      /**
       * @description Downloads the file from the platform (which keeps incoming media for a limited time)
       * @example /api/messaging/conversations/65f1c0ffee0123456789abcd/messages/65f1c0ffee0123456789abce/media
       */
      downloadPath: string;
    };
    MessagingChoiceDto: {
      /**
       * @description A quick-reply button of a template, a reply button of an interactive message, or a row of a list
       * @example template_button
       * @enum {string}
       */
      via: 'template_button' | 'reply_button' | 'list';
      /** @example Track my order */
      title: string;
      /**
       * @description The button's payload or the reply's id, as the business set it
       * @example ORDER_STATUS
       */
      payload: string | null;
      /** @example Where your parcel is now */
      description: string | null;
    };
    MessagingLocationDto: {
      /** @example 37.483307 */
      latitude: number;
      /** @example -122.148981 */
      longitude: number;
      /** @example Philz Coffee */
      name: string | null;
      /** @example 101 Forest Ave, Palo Alto, CA 94301 */
      address: string | null;
      /** @example https://philzcoffee.com */
      url: string | null;
    };
    MessagingContactPhoneDto: {
      /** @example +1 (650) 555-1234 */
      phone: string;
      /** @example 16505551234 */
      waId: string | null;
      /** @example CELL */
      type: string | null;
    };
    MessagingContactCardDto: {
      /** @example Barbara J. Johnson */
      name: string | null;
      /** @example Acme */
      organization: string | null;
      phones: components['schemas']['MessagingContactPhoneDto'][];
      /**
       * @example [
       *       "bjohnson@example.com"
       *     ]
       */
      emails: string[];
    };
    MessagingReactionDto: {
      /**
       * @description null: the customer removed their reaction
       * @example 👍
       */
      emoji: string | null;
      /**
       * @description The platform id of the message reacted to
       * @example wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA
       */
      messageId: string | null;
    };
    MessagingMessageErrorDto: {
      /**
       * @description The platform's error code, or ours: llm_not_configured, llm_failed, outside_window, number_removed
       * @example 131026
       */
      code: string;
      /** @example Message undeliverable */
      message: string;
    };
    MessagingMessageDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /**
       * @example inbound
       * @enum {string}
       */
      direction: 'inbound' | 'outbound';
      /**
       * @description The platform's type: text, template, image, audio, video, document, sticker, button (a template quick reply), interactive (a reply button or list row), location, contacts, reaction, …
       * @example text
       */
      type: string;
      /**
       * @description What an outgoing message is for; null on incoming ones
       * @example reply
       * @enum {string|null}
       */
      purpose: 'welcome' | 'reply' | 'template' | null;
      /**
       * @description The text: a media caption, the title of a tapped button (a template: its body as the customer reads it)
       * @example We open at 9.
       */
      text: string | null;
      /** @description A photo, voice note, audio, video, document or sticker the customer sent */
      media: components['schemas']['MessagingMediaDto'] | null;
      /** @description A button or list row the customer tapped, with its payload */
      choice: components['schemas']['MessagingChoiceDto'] | null;
      location: components['schemas']['MessagingLocationDto'] | null;
      /** @description Contact cards the customer shared */
      contacts: components['schemas']['MessagingContactCardDto'][] | null;
      /** @description A reaction to a message: stored, never answered */
      reaction: components['schemas']['MessagingReactionDto'] | null;
      /**
       * @description inbound: received. outbound: pending (being sent or waiting for a retry), sent, delivered, read, failed (the platform refused it or kept failing), not_sent (never sent: no model, a model error or outside the 24-hour window; see error)
       * @example delivered
       * @enum {string}
       */
      status: 'received' | 'pending' | 'sent' | 'delivered' | 'read' | 'failed' | 'not_sent';
      error: components['schemas']['MessagingMessageErrorDto'] | null;
      /** @example wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQ */
      platformMessageId: string | null;
      /** @example 2026-03-01T12:00:00.000Z */
      createdAt: string;
      /** @example 2026-03-01T12:00:01.000Z */
      updatedAt: string;
    };
    TemplateValueDto: {
      /**
       * @example body
       * @enum {string}
       */
      component: 'header' | 'body' | 'button';
      /**
       * @description Position of a `{{1}}`-style variable
       * @example 1
       */
      index?: number;
      /**
       * @description Name of a `{{name}}` variable
       * @example first_name
       */
      name?: string;
      /**
       * @description Position of the button (button variables)
       * @example 0
       */
      buttonIndex?: number;
      /** @example Ana */
      value: string;
    };
    SendConversationTemplateDto: {
      /**
       * @description An APPROVED template of the number
       * @example order_update
       */
      name: string;
      /** @example en_US */
      language: string;
      /** @description One value per variable that GET /api/messaging/get-variable-by-template-id lists (component, index or name, buttonIndex for buttons) */
      variables?: components['schemas']['TemplateValueDto'][];
    };
    AddDncDto: {
      /**
       * @description With country code; `+` optional; stored in E.164. Must be the number of the call record that `requestUUID` identifies: another number answers 400.
       * @example +14155551234
       */
      phoneNumber: string;
      /**
       * @description Batch of the call that triggered the request; must exist in the workspace
       * @example 65f1c0ffee0123456789abcd
       */
      batchId: string;
      /**
       * @description Call identifier of a phone log of that batch (the call record's attempt)
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      requestUUID: string;
      /**
       * @description Classification of the entry, for example a reason category
       * @example customer_request
       */
      type?: string;
    };
    DncEntryDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /**
       * @description E.164
       * @example +14155551234
       */
      phoneNumber: string;
      /** @example customer_request */
      type: string | null;
      /**
       * @description Where an imported number came from (the `source` column); null otherwise
       * @example crm-export-2026-11
       */
      source: string | null;
      /**
       * @description null once the batch is deleted for good
       * @example 65f1c0ffee0123456789abce
       */
      batchId: string | null;
      /** @example 65f1c0ffee0123456789abcf */
      callRecordId: string | null;
      /** @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e */
      requestUUID: string | null;
      /** @example https://recordings.example.com/r/1.mp3 */
      recordingUrl: string | null;
      /** @example Please stop calling me. */
      transcript: string | null;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
    };
    DncListDto: {
      /** @description Newest first */
      entries: components['schemas']['DncEntryDto'][];
      pagination: components['schemas']['PaginationDto'];
    };
    DncImportRowErrorDto: {
      /**
       * @description E.164 when the number is valid; as sent (trimmed, at most 40 characters) when not
       * @example +14155551234
       */
      phoneNumber?: string;
      /**
       * @description The offending field of invalid_field
       * @example _id
       */
      field?: string;
      /**
       * @description 1-based position among the data rows: for a CSV the data row counted without the header row and blank lines, for JSON the array index + 1
       * @example 3
       */
      row: number;
      /**
       * @description missing_phone_number: no phoneNumber, or an entry that is not an object, string or number; invalid_number: not a valid number with its country code; invalid_field: a type, reason or source that is not text, holds a NUL, or is longer than 100 characters (named in `field`)
       * @enum {string}
       */
      reason: 'missing_phone_number' | 'invalid_number' | 'invalid_field';
    };
    DncImportReportDto: {
      /**
       * @description Data rows read
       * @example 1000
       */
      received: number;
      /**
       * @description True when more rows were rejected than listed
       * @example false
       */
      errorsTruncated: boolean;
      /**
       * @description Numbers added to the list
       * @example 990
       */
      imported: number;
      /**
       * @description Rows whose number was on the list already, or came earlier in this file: nothing changed
       * @example 7
       */
      alreadyListed: number;
      /**
       * @description Invalid rows, not imported: received = imported + alreadyListed + rejected
       * @example 3
       */
      rejected: number;
      /** @description One entry per invalid row, in row order: the first 1000 */
      errors: components['schemas']['DncImportRowErrorDto'][];
    };
    DncCheckDto: {
      /**
       * @description The number checked, in E.164
       * @example +14155551234
       */
      phoneNumber: string;
      /** @example true */
      onDncList: boolean;
      /**
       * @description The entry that lists the number; absent when it is not listed
       * @example 65f1c0ffee0123456789abcd
       */
      entryId?: string;
      /** @description The whole entry: sent only with `include=entry`, and only when the number is listed */
      entry?: components['schemas']['DncEntryDto'];
    };
    BatchSummaryDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example November renewals */
      batchName: string;
      /** @example 1200 */
      totalCalls: number;
      /**
       * @description Calls picked up or answered
       * @example 310
       */
      callsPicked: number;
      /**
       * @description Calls completed successfully
       * @example 280
       */
      callsCompleted: number;
      /**
       * @example active
       * @enum {string}
       */
      queue_status: 'active' | 'paused' | 'completed';
      /**
       * @description Why the batch is not dialing normally: null while all is well; `cancelled` (stopped by cancel, now completed), `failure_rate` (paused by the dialer: most recent calls failed), `no_agent` (paused: no voice agent to speak), `no_calling_number` (paused: none of its numbers is left), `end_at_reached` (completed at its endAt: contacts still waiting were closed).
       * @example null
       * @enum {string|null}
       */
      statusReason:
        'cancelled' | 'failure_rate' | 'no_agent' | 'no_calling_number' | 'end_at_reached' | null;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /** @example 2026-11-22T10:05:00.000Z */
      updatedAt: string;
    };
    BatchListDto: {
      batches: components['schemas']['BatchSummaryDto'][];
      pagination: components['schemas']['PaginationDto'];
    };
    TurnLatencyDto: {
      /**
       * @description End of the callee's speech → the reply's first audio, ms
       * @example 930
       */
      totalMs: number;
      /**
       * @description Speech recognition, ms
       * @example 180
       */
      recognitionMs: number | null;
      /**
       * @description The model's first token, ms
       * @example 450
       */
      modelMs: number | null;
      /**
       * @description Synthesis of the first audio, ms
       * @example 300
       */
      synthesisMs: number | null;
    };
    PhoneLogTurnDto: {
      /** @enum {string} */
      role: 'agent' | 'callee';
      /** @example Hello, this is Ada from Acme. */
      text: string;
      /** @example 2026-11-22T10:00:05.000Z */
      startedAt: string;
      /** @description On an agent turn that answered the callee: how long they waited for it, and where the time went */
      latency?: components['schemas']['TurnLatencyDto'];
    };
    CallTurnLatencyDto: {
      /**
       * @description Replies that answered a callee turn
       * @example 6
       */
      turns: number;
      /**
       * @description Median reply latency, ms
       * @example 820
       */
      p50Ms: number;
      /**
       * @description 95th percentile reply latency, ms
       * @example 1240
       */
      p95Ms: number;
    };
    PhoneLogDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /**
       * Format: uuid
       * @description The call id the DNC add operation accepts as requestUUID
       */
      requestUUID: string;
      /** @example completed */
      callStatus: string;
      /**
       * @description Seconds
       * @example 63
       */
      callDuration: number;
      recordingUrl?: string | null;
      /** @description The conversation, one `Agent: …` / `Callee: …` line per turn */
      transcript?: string | null;
      /** @description The conversation turn by turn, as it happened */
      turns: components['schemas']['PhoneLogTurnDto'][];
      /** @description The call's reply latency over its turns; null when no reply answered the callee */
      turnLatency: components['schemas']['CallTurnLatencyDto'] | null;
      /**
       * @description Post-call summary (null until generated)
       * @example The callee confirmed the appointment for Tuesday morning.
       */
      summary?: string | null;
      /**
       * @description Post-call analysis (null until done): successful, sentiment, disposition, optedOut and the agent's analysisFields by name
       * @example {
       *       "successful": true,
       *       "sentiment": "positive",
       *       "disposition": "interested",
       *       "optedOut": false,
       *       "appointment_booked": true
       *     }
       */
      analysis?: {
        [key: string]: unknown;
      } | null;
      /**
       * @description The number the agent transferred the call to (its transferNumber; call.transferred), null when it was not transferred. The call stays in-progress with that party and completes when they hang up
       * @example +14155550199
       */
      transferredTo?: string | null;
      /**
       * @description When the new party answered the transfer (null while it rings, or when no one answered)
       * @example 2026-11-22T10:01:30.000Z
       */
      transferredAt?: string | null;
      /**
       * @description When the agent ended the call itself, why: agent (its goodbye, end_call, an opt-out), max_duration (the agent's maxCallSeconds), service_failure (a speech service, the model, the provider API or the media stream failed for good: see failedDependency), drain (the process serving it shut down; the contact is called again), voicemail (after its message), system; null when the callee or the provider ended it
       * @example null
       * @enum {string|null}
       */
      endedBy?:
        'agent' | 'max_duration' | 'service_failure' | 'drain' | 'voicemail' | 'system' | null;
      /**
       * @description With endedBy service_failure: stt, tts, llm, telephony or media; else null
       * @example null
       * @enum {string|null}
       */
      failedDependency?: 'stt' | 'tts' | 'llm' | 'telephony' | 'media' | null;
      /**
       * @description Who or what answered, as the voice agent heard it in the first seconds: human, voicemail, mailbox_full, ivr, call_screening, fax or uncertain (call.completed and call.failed carry it as answer_outcome); null when no media stream heard the call
       * @example human
       * @enum {string|null}
       */
      answerOutcome?:
        | 'human'
        | 'voicemail'
        | 'mailbox_full'
        | 'ivr'
        | 'call_screening'
        | 'fax'
        | 'uncertain'
        | null;
      /**
       * @description How long after the stream's first audio answerOutcome was known
       * @example 1200
       */
      answerOutcomeMs?: number | null;
      /**
       * @description What the callee typed on the keypad when the agent asked (its collect_digits tool), by the entry's name; {} when nothing was (call.completed carries it as collected_digits). An agent with privateDigits has its entries sealed at rest (AES-256-GCM): here each shows as a mask of as many • as digits were typed; only call.completed carries the digits
       * @example {
       *       "account_number": "12345678",
       *       "pin": "••••"
       *     }
       */
      collectedDigits: {
        [key: string]: string;
      };
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
    };
    /** @description A call record: its number, its dynamic contact fields (strings) and its call attempts */
    CallRecordDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /**
       * @description E.164
       * @example +14155551234
       */
      phoneNumber: string;
      /** @description Present when call attempts exist, oldest first */
      phoneLogs?: components['schemas']['PhoneLogDto'][];
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
    };
    RetryRuleDto: {
      /**
       * @description Retries after endings with this outcome, per attempt series: the contact is called again while the endings with this outcome (the one just ended included) number at most this many. 0: never called again after this outcome.
       * @example 3
       */
      attempts: number;
      /**
       * @description Seconds from the end of the call to the earliest retry (absent: the batch's `delay`); the retry then waits for the calling window as any other
       * @example 300
       */
      delay?: number;
    };
    RetryPolicyDto: {
      /** @description The line was busy */
      busy?: components['schemas']['RetryRuleDto'];
      /** @description Nobody answered (callStatus no-answer) */
      no_answer?: components['schemas']['RetryRuleDto'];
      /** @description The call could not connect or broke off */
      failed?: components['schemas']['RetryRuleDto'];
      /** @description A voicemail answered (its message left or not) */
      voicemail?: components['schemas']['RetryRuleDto'];
      /** @description A full mailbox answered, as the voice agent heard it */
      mailbox_full?: components['schemas']['RetryRuleDto'];
      /** @description A fax machine answered, as the voice agent heard it */
      fax?: components['schemas']['RetryRuleDto'];
    };
    BatchDetailsDto: {
      /** @example 65f1c0ffee0123456789abcd */
      batchId: string;
      /** @example November renewals */
      batchName: string;
      /** @enum {string} */
      batchStatus: 'active' | 'paused' | 'completed';
      /**
       * @description Why the batch is not dialing normally: null while all is well; `cancelled` (stopped by cancel, now completed), `failure_rate` (paused by the dialer: most recent calls failed), `no_agent` (paused: no voice agent to speak), `no_calling_number` (paused: none of its numbers is left), `end_at_reached` (completed at its endAt: contacts still waiting were closed).
       * @example null
       * @enum {string|null}
       */
      statusReason:
        'cancelled' | 'failure_rate' | 'no_agent' | 'no_calling_number' | 'end_at_reached' | null;
      /**
       * @description The voice agent named at creation; null: the organization’s default agent speaks (also once the named agent was deleted)
       * @example 65f1c0ffee0123456789abcd
       */
      agentId: string | null;
      /**
       * Format: date-time
       * @description Nothing is dialed before it; null: dialing started at once
       * @example 2026-11-23T14:00:00.000Z
       */
      startAt: string | null;
      /**
       * Format: date-time
       * @description No call is placed from it on (statusReason `end_at_reached` once it passed)
       * @example 2026-11-27T22:00:00.000Z
       */
      endAt: string | null;
      /** @description The per-outcome retry budgets given at creation; null: none */
      retryPolicy: components['schemas']['RetryPolicyDto'] | null;
      /** @example 1 */
      page: number;
      /** @example 10 */
      limit: number;
      /**
       * @description Calls in the batch matching the filter and search
       * @example 1200
       */
      total: number;
      /** @example 120 */
      totalPages: number;
      data: (components['schemas']['CallRecordDto'] & {
        [key: string]: string;
      })[];
    };
    ImportRowErrorDto: {
      /**
       * @description 1-based position among the data rows: the contacts array index + 1, or for a CSV the data row counted without the header row and blank lines
       * @example 3
       */
      row: number;
      /**
       * @description E.164 when the number is valid; as sent (trimmed, at most 40 characters) when not
       * @example +14155551234
       */
      phoneNumber?: string;
      /**
       * @description duplicate_in_batch: the number is already in the batch or earlier in this import; on_dnc_list: the number is on the organization's do-not-call list
       * @enum {string}
       */
      reason:
        | 'invalid_number'
        | 'duplicate_in_batch'
        | 'on_dnc_list'
        | 'missing_phone_number'
        | 'invalid_field';
      /**
       * @description The offending field of invalid_field
       * @example _id
       */
      field?: string;
    };
    ImportReportDto: {
      /**
       * @description Data rows read
       * @example 1000
       */
      received: number;
      /**
       * @description Call records added to the batch
       * @example 997
       */
      imported: number;
      /**
       * @description Rows not added: received = imported + rejected
       * @example 3
       */
      rejected: number;
      /** @description One entry per rejected row, in row order: the first 1000 */
      errors: components['schemas']['ImportRowErrorDto'][];
      /**
       * @description True when more rows were rejected than listed
       * @example false
       */
      errorsTruncated: boolean;
    };
    CallingHourDto: {
      /**
       * @description HH:MM, 24-hour clock, in the batch time zone
       * @example 09:00
       */
      start: string;
      /**
       * @description HH:MM, 24-hour clock, end excluded. Before start: the window crosses midnight and belongs to the day it starts (22:00–02:00 on an allowed Friday runs into Saturday morning); equal to start: 24 hours from start.
       * @example 18:00
       */
      end: string;
    };
    CreateBatchDto: {
      /** @example November renewals */
      batchName: string;
      /**
       * @description Phone record ids of this organization the dialer rotates through; at least one active
       * @example [
       *       "65f1c0ffee0123456789abcd"
       *     ]
       */
      callingNumbers: string[];
      /**
       * @description Retry attempts for failed calls
       * @default 0
       * @example 2
       */
      retry?: number;
      /**
       * @description Which endings earn one of the `retry` attempts: busy, no_answer, failed (the call could not connect or broke off), and what answered as the voice agent heard it — voicemail (its message left or not), mailbox_full, fax. Default: all but fax (a fax line never becomes a person). A call the service itself cut short (a deploy) is always made good.
       * @default [
       *       "busy",
       *       "no_answer",
       *       "failed",
       *       "voicemail",
       *       "mailbox_full"
       *     ]
       * @example [
       *       "busy",
       *       "no_answer",
       *       "voicemail"
       *     ]
       */
      retryOn?: ('busy' | 'no_answer' | 'failed' | 'voicemail' | 'mailbox_full' | 'fax')[];
      /**
       * @description Seconds between retries
       * @default 0
       * @example 300
       */
      delay?: number;
      /**
       * @description Retry budgets per outcome, keyed by the `retryOn` words (busy, no_answer, failed, voicemail, mailbox_full, fax). A named outcome is retried by its own rule alone, whatever `retryOn` and `retry` say: while the attempt series has ended with that outcome at most `attempts` times (the ending just seen included), so `busy: { attempts: 3 }` calls a number that stays busy 4 times in all, and the busy endings spend nothing of another outcome's budget; each retry `delay` seconds after the call ended (absent: the batch's `delay`). An outcome it does not name keeps the batch rule: retried when `retryOn` names it, while the attempts of the series not ended with a named outcome (the one just ended included) number at most `retry`, after `delay`. A series starts with the first call and again with each re-dial (POST /api/call/batches/{batchId}/redial). A call the service itself cut short is made good outside any budget, as before.
       * @example {
       *       "busy": {
       *         "attempts": 3,
       *         "delay": 300
       *       },
       *       "no_answer": {
       *         "attempts": 1,
       *         "delay": 3600
       *       }
       *     }
       */
      retryPolicy?: components['schemas']['RetryPolicyDto'];
      /**
       * @description ISO 8601 instant with its offset: nothing of the batch is dialed before it (absent: at once). The calling window and the callee rules still apply from then on.
       * @example 2026-11-23T14:00:00Z
       */
      startAt?: string;
      /**
       * @description ISO 8601 instant with its offset, in the future and after `startAt`: no call is placed from then on, nor claimed within DIALER_LAST_CALL_MARGIN_SECONDS (180 s) before it, and no retry is scheduled that could not be. At endAt calls already placed finish (they are not hung up, nor retried), every contact still waiting is closed, and the batch becomes `completed` with statusReason `end_at_reached`. Absent: the batch runs until its contacts are done.
       * @example 2026-11-27T22:00:00Z
       */
      endAt?: string;
      /**
       * @description IANA time zone name
       * @default UTC
       * @example America/New_York
       */
      timezone?: string;
      /** @description Daily calling window */
      callingHour?: components['schemas']['CallingHourDto'];
      /**
       * @description 0 = Sunday through 6 = Saturday
       * @default [
       *       0,
       *       1,
       *       2,
       *       3,
       *       4,
       *       5,
       *       6
       *     ]
       * @example [
       *       1,
       *       2,
       *       3,
       *       4,
       *       5
       *     ]
       */
      allowedDays?: number[];
      /**
       * @description Call only between 08:00 and 21:00 in every time zone the callee’s number may be in. Set false only for non-solicitation calls (reminders, consented service calls).
       * @default true
       */
      enforceCalleeLocalHours?: boolean;
      /**
       * @description Take each contact's `timezone` as where the callee is, even when their number cannot be there (a CRM that knows its customers moved). By default a contact timezone is used only when it is one of the zones the number may be in; otherwise every one of the number's zones must be within calling hours (the strictest wins), so a CRM default such as "UTC" cannot open a 03:00 call.
       * @default false
       */
      trustContactTimezone?: boolean;
      /**
       * @description Voice agent id of this organization that speaks on the calls (404 otherwise, and nothing is created). Without it the organization’s default agent speaks, as it does once the named agent is deleted (the batch’s agentId then becomes null).
       * @example 65f1c0ffee0123456789abcd
       */
      agentId?: string;
      /**
       * @description Calls of this batch in progress at once. It can only lower the organization’s limit (DIALER_MAX_CONCURRENT_CALLS, shared by all its batches), never raise it. Absent: the organization’s limit alone.
       * @example 5
       */
      maxConcurrentCalls?: number;
      /**
       * @description Record each answered call: its phone log gets recordingUrl and call.recording.available is raised when the provider has the recording.
       * @default false
       */
      recordCalls?: boolean;
      /**
       * @description Contacts: each needs phoneNumber; other string fields are the dynamic contact fields. At most 10000 per request (upload a CSV for more).
       * @example [
       *       {
       *         "phoneNumber": "+14155551234",
       *         "name": "Ada",
       *         "account_id": "A-1",
       *         "priority": "high"
       *       }
       *     ]
       */
      contacts?: {
        [key: string]: string;
      }[];
    };
    DeleteBatchResponseDto: {
      /** @example true */
      success: boolean;
      /** @example Batch deleted */
      message: string;
    };
    RedialResultDto: {
      /**
       * @description Contacts made due again by this request, each as a new attempt series (0: none matched, e.g. the same request again while the first series is still under way)
       * @example 42
       */
      redialed: number;
      /** @description The batch after the re-dial */
      batch: components['schemas']['BatchSummaryDto'];
    };
    RedialBatchDto: {
      /**
       * @description The contacts whose last call ended so (its callStatus, as batch details show it). Absent: no-answer, busy, voicemail and failed. `completed` (answered) contacts are called again only when named here.
       * @example [
       *       "no-answer",
       *       "busy"
       *     ]
       */
      outcomes?: ('no-answer' | 'busy' | 'voicemail' | 'failed' | 'completed')[];
      /**
       * @description Only the contacts whose latest phone log matches, as batch details' `filter` (an object here): keyed by callStatus, callDuration, recordingUrl, transcript, requestUUID, answerOutcome; null matches a null field.
       * @example {
       *       "answerOutcome": "voicemail"
       *     }
       */
      filter?: {
        [key: string]: string | number | boolean;
      };
      /**
       * @description Only the contacts a case-insensitive POSIX regular expression finds in a string contact field, as batch details' `search`. Backreferences (\1 to \9), a quantifier on a group that already holds one (as in (a+)+ or (.*x){3}) and counts above 20 in {m,n} answer 400: they can take the regular expression engine seconds per record.
       * @example smith|jones
       */
      search?: string;
    };
    ImportContactsDto: {
      /**
       * @description Required with application/json. At most 10000 per request, and the body within JSON_BODY_LIMIT_BYTES (1 MiB by default): upload a CSV for more. Each contact needs phoneNumber (normalized to E.164; a number without + is read with its country code). Every other field is a dynamic contact field: names of 1-64 characters (letters, digits, space, _ . -), not _id, phoneLogs, createdAt; values are strings of at most 1000 characters (numbers and booleans become strings; empty values are left out); at most 50 fields per contact. A value with a NUL character or an unpaired UTF-16 surrogate rejects its contact (invalid_field).
       * @example [
       *       {
       *         "phoneNumber": "+14155551234",
       *         "name": "Ada",
       *         "account_id": "A-1",
       *         "priority": "high"
       *       },
       *       {
       *         "phoneNumber": "14155551235",
       *         "name": "Grace"
       *       }
       *     ]
       */
      contacts?: {
        [key: string]: string;
      }[];
    };
    WebhookEventEnvelope: {
      /**
       * @description The event type; decides the schema of data
       * @example call.completed
       * @enum {string}
       */
      type:
        | 'call.started'
        | 'call.answered'
        | 'call.completed'
        | 'call.failed'
        | 'call.transferred'
        | 'call.recording.available'
        | 'call.summary.generated'
        | 'call.analysis.completed'
        | 'webhook.test';
      /**
       * @description When the event was raised; the same on every retry
       * @example 2026-11-22T10:00:00.000Z
       */
      timestamp: string;
      /** @description The payload of the type: call.started → CallStartedEventData, call.answered → CallAnsweredEventData, call.completed → CallCompletedEventData, call.failed → CallFailedEventData, call.transferred → CallTransferredEventData, call.recording.available → CallRecordingAvailableEventData, call.summary.generated → CallSummaryGeneratedEventData, call.analysis.completed → CallAnalysisCompletedEventData, webhook.test → WebhookTestEventData */
      data:
        | components['schemas']['CallStartedEventData']
        | components['schemas']['CallAnsweredEventData']
        | components['schemas']['CallCompletedEventData']
        | components['schemas']['CallFailedEventData']
        | components['schemas']['CallTransferredEventData']
        | components['schemas']['CallRecordingAvailableEventData']
        | components['schemas']['CallSummaryGeneratedEventData']
        | components['schemas']['CallAnalysisCompletedEventData']
        | components['schemas']['WebhookTestEventData'];
    };
    CallStartedEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /**
       * @description Telephony provider carrying the call
       * @example provider_two
       */
      provider: string;
    };
    CallAnsweredEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /** @example 2026-11-22T10:00:00.000Z */
      answered_at: string;
      /**
       * @description Answering-machine detection result as known at the answer. Detection runs beside the call (the callee is never kept waiting for it), so it is often `unknown` here; call.completed and call.failed carry the verdict
       * @example human
       * @enum {string}
       */
      answered_by: 'human' | 'machine' | 'unknown';
      /**
       * @description Seconds from call.started to the answer
       * @example 7
       */
      ring_duration_seconds: number;
    };
    TurnLatencySummary: {
      /**
       * @description Replies that answered a caller turn
       * @example 6
       */
      turns: number;
      /**
       * @description Median end of speech → first audio, in ms
       * @example 820
       */
      p50_ms: number;
      /**
       * @description 95th percentile, in ms
       * @example 1240
       */
      p95_ms: number;
    };
    CallCompletedEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /**
       * @example completed
       * @enum {string}
       */
      status: 'completed';
      /** @example 2026-11-22T10:00:00.000Z */
      started_at: string;
      /**
       * @description When the callee answered
       * @example 2026-11-22T10:00:00.000Z
       */
      answered_at: string | null;
      /** @example 2026-11-22T10:00:00.000Z */
      ended_at: string;
      /**
       * @description Talk time in whole seconds
       * @example 184
       */
      duration_seconds: number;
      /**
       * @example human
       * @enum {string}
       */
      answered_by: 'human' | 'machine' | 'unknown';
      /**
       * @description Who or what ended the call. service_failure: a service the agent depends on failed for good (after its retries and fallback engine) and the agent apologised and hung up
       * @example callee
       * @enum {string}
       */
      ended_by: 'agent' | 'callee' | 'system' | 'transfer' | 'max_duration' | 'service_failure';
      /**
       * @description When the agent ended the call because a service failed: stt (speech-to-text), tts (text-to-speech), llm (the language model), telephony (the provider API) or media (the call's audio stream); null otherwise
       * @example null
       * @enum {string|null}
       */
      failed_dependency: 'stt' | 'tts' | 'llm' | 'telephony' | 'media' | null;
      /** @description How long the callee waited for the agent's replies (end of their speech → the reply's first audio) over the call; null when no reply answered a caller turn */
      turn_latency: components['schemas']['TurnLatencySummary'] | null;
      /**
       * @description What the callee typed on the keypad when the agent asked (its collect_digits tool), by the entry's name; {} when nothing was. With the agent's privateDigits this is the only place the digits go: the model and the transcript hear only how many were typed, batch details show a mask, and they are kept sealed at rest (AES-256-GCM) until this delivery is signed and sent
       * @example {
       *       "account_number": "12345678"
       *     }
       */
      collected_digits: {
        [key: string]: string;
      };
      /**
       * @description Who or what answered, as the voice agent heard it in the first seconds (the greeting's words and length, a beep, a fax tone): human, voicemail, mailbox_full, ivr, call_screening, fax or uncertain. voicemail gets the agent's voicemail message after the beep; mailbox_full and fax are hung up on (both end the attempt as voicemail, answered_by machine); the others get the conversation. Null when no media stream heard the call
       * @example human
       * @enum {string|null}
       */
      answer_outcome:
        | 'human'
        | 'voicemail'
        | 'mailbox_full'
        | 'ivr'
        | 'call_screening'
        | 'fax'
        | 'uncertain'
        | null;
      /**
       * @description How long after the stream's first audio the answer_outcome was known
       * @example 1200
       */
      answer_outcome_ms: number | null;
      /**
       * @description Whether call.recording.available and the analysis events will follow
       * @example true
       */
      recording_expected: boolean;
    };
    CallFailedEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /**
       * @example failed
       * @enum {string}
       */
      status: 'failed';
      /**
       * @example no_answer
       * @enum {string}
       */
      failure_reason:
        | 'busy'
        | 'no_answer'
        | 'rejected'
        | 'invalid_number'
        | 'voicemail'
        | 'do_not_call'
        | 'outside_calling_hours'
        | 'provider_error'
        | 'network_error'
        | 'canceled'
        | 'interrupted'
        | 'unknown';
      /**
       * @description The provider's own status or error text
       * @example no-answer
       */
      provider_status: string | null;
      /** @example 2026-11-22T10:00:00.000Z */
      ended_at: string;
      /**
       * @description Talk time if it connected before breaking off
       * @example 0
       */
      duration_seconds: number;
      /**
       * @description Whether the contact will be dialed again
       * @example true
       */
      will_retry: boolean;
      /**
       * @description When the next attempt is planned
       * @example 2026-11-22T10:00:00.000Z
       */
      next_attempt_at: string | null;
      /**
       * @description When the agent ended the call because a service failed: stt (speech-to-text), tts (text-to-speech), llm (the language model), telephony (the provider API) or media (the call's audio stream); null otherwise
       * @example null
       * @enum {string|null}
       */
      failed_dependency: 'stt' | 'tts' | 'llm' | 'telephony' | 'media' | null;
      /**
       * @description Who or what answered, as the voice agent heard it in the first seconds (the greeting's words and length, a beep, a fax tone): human, voicemail, mailbox_full, ivr, call_screening, fax or uncertain. voicemail gets the agent's voicemail message after the beep; mailbox_full and fax are hung up on (both end the attempt as voicemail, answered_by machine); the others get the conversation. Null when no media stream heard the call
       * @example human
       * @enum {string|null}
       */
      answer_outcome:
        | 'human'
        | 'voicemail'
        | 'mailbox_full'
        | 'ivr'
        | 'call_screening'
        | 'fax'
        | 'uncertain'
        | null;
      /**
       * @description How long after the stream's first audio the answer_outcome was known
       * @example 1200
       */
      answer_outcome_ms: number | null;
    };
    CallTransferredEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /**
       * @description When the new party answered: the event is raised then, never for a transfer no one answered (the caller is back with the agent)
       * @example 2026-11-22T10:00:00.000Z
       */
      transferred_at: string;
      /**
       * @description E.164 number or SIP URI
       * @example +14155559876
       */
      transfer_to: string;
      /**
       * @description cold: the agent leaves at once; warm: it briefs the new party first
       * @example warm
       * @enum {string}
       */
      transfer_type: 'cold' | 'warm';
      /**
       * @description Why the agent transferred, when known
       * @example Asked for a human
       */
      reason: string | null;
      /**
       * @description warm: the brief the agent wrote, read to the new party before they took the call; null for a cold transfer
       * @example Grace Hopper wants to move her delivery to Friday; her address is confirmed.
       */
      summary: string | null;
    };
    CallRecordingAvailableEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /** @example https://recordings.example.com/r/1.mp3 */
      recording_url: string;
      /**
       * @description When recording_url stops working; null: never
       * @example 2026-11-22T10:00:00.000Z
       */
      expires_at: string | null;
      /** @example 184 */
      recording_duration_seconds: number;
      /** @example audio/mpeg */
      content_type: string;
      /**
       * @example dual
       * @enum {string}
       */
      channels: 'mono' | 'dual';
    };
    TranscriptTurn: {
      /**
       * @example agent
       * @enum {string}
       */
      role: 'agent' | 'callee';
      /** @example Hi Jane, this is Ava from Acme. */
      text: string;
      /**
       * @description Seconds from the answer
       * @example 1.2
       */
      start_seconds: number;
    };
    CallSummaryGeneratedEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /** @example Jane wants a callback next Tuesday about the gold plan. */
      summary: string;
      /**
       * @description One line per turn
       * @example Agent: Hi Jane…
       *     Callee: Hello…
       */
      transcript: string;
      transcript_turns: components['schemas']['TranscriptTurn'][];
      /**
       * @description BCP 47 language of the conversation
       * @example en-US
       */
      language: string | null;
    };
    CallAnalysisCompletedEventData: {
      /**
       * @description The call (one dial attempt); stable across its events
       * @example 65f1c0ffee0123456789abcd
       */
      call_id: string;
      /**
       * @description Position among the events of the same call: 1, 2, 3… without gaps, in commit order. Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.
       * @example 3
       */
      sequence: number;
      /**
       * @description When the change happened (not when delivered)
       * @example 2026-11-22T10:00:00.000Z
       */
      occurred_at: string;
      /**
       * @description Provider call UUID
       * @example 3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e
       */
      request_uuid: string;
      /**
       * @description The batch (campaign) of the call
       * @example 65f1c0ffee0123456789abcd
       */
      batch_id: string;
      /**
       * @description The contact row that was dialed
       * @example 65f1c0ffee0123456789abcd
       */
      call_record_id: string;
      /**
       * @description 1 for the first dial, 2 for the first retry…
       * @example 1
       */
      attempt: number;
      /**
       * @example outbound
       * @enum {string}
       */
      direction: 'outbound';
      /**
       * @description Caller ID, E.164
       * @example +14155550100
       */
      from_number: string;
      /**
       * @description Dialed number, E.164
       * @example +14155551234
       */
      to_number: string;
      /**
       * @description Voice agent of the call
       * @example 65f1c0ffee0123456789abcd
       */
      agent_id: string | null;
      /**
       * @description The contact's CSV columns, as imported
       * @example {
       *       "name": "Jane",
       *       "plan": "gold"
       *     }
       */
      variables: {
        [key: string]: string;
      };
      /**
       * @description Whether the call reached its goal; null: undecided
       * @example true
       */
      successful: boolean | null;
      /**
       * @example positive
       * @enum {string}
       */
      sentiment: 'positive' | 'neutral' | 'negative' | 'unknown';
      /**
       * @description Disposition given to the call
       * @example callback_requested
       */
      disposition: string | null;
      /**
       * @description The callee asked not to be called again
       * @example false
       */
      opted_out: boolean;
      /**
       * @description Values of the campaign's analysis fields, by name; null when the call did not tell
       * @example {
       *       "callback_day": "Tuesday",
       *       "budget": 300
       *     }
       */
      extracted_data: {
        [key: string]: (string | number | boolean) | null;
      };
    };
    WebhookTestEventData: {
      /** @example 65f1c0ffee0123456789abcd */
      webhook_id: string;
      /** @example This is a test event from Switchboard. */
      message: string;
      /** @example 2026-11-22T10:00:00.000Z */
      occurred_at: string;
    };
    CreatedWebhookDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example CRM sync */
      name: string;
      /**
       * @description HTTPS destination
       * @example https://hooks.example.com/switchboard
       */
      url: string;
      /**
       * @description Call event types delivered to this endpoint: a non-empty list without repeats. Each delivery is a POST of `{ type, timestamp, data }` signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers); the `data` of each type is documented in the schemas CallStartedEventData, CallAnsweredEventData, CallCompletedEventData, CallFailedEventData, CallTransferredEventData, CallRecordingAvailableEventData, CallSummaryGeneratedEventData, CallAnalysisCompletedEventData (and WebhookTestEventData for `webhook.test`, which is never subscribed to), all wrapped in WebhookEventEnvelope.
       * @example [
       *       "call.completed",
       *       "call.recording.available"
       *     ]
       */
      events: (
        | 'call.started'
        | 'call.answered'
        | 'call.completed'
        | 'call.failed'
        | 'call.transferred'
        | 'call.recording.available'
        | 'call.summary.generated'
        | 'call.analysis.completed'
      )[];
      /**
       * @description false: no event is delivered
       * @example true
       */
      active: boolean;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /**
       * @description Last change by the owner (deliveries do not move it)
       * @example 2026-11-22T10:00:00.000Z
       */
      updatedAt: string;
      /**
       * @description Present when delivery switched the webhook off: `gone` (the endpoint answered 410), `failing` (it kept failing for 5 days), `manual`. Setting active to true clears it.
       * @example gone
       * @enum {string}
       */
      disabledReason?: 'gone' | 'failing' | 'manual';
      /**
       * @description When delivery switched the webhook off; present with disabledReason
       * @example 2026-11-22T10:00:00.000Z
       */
      disabledAt?: string;
      /**
       * @description The signing secret, shown in this response only: store it now. Verify deliveries with any Standard Webhooks library (or @app/webhooks).
       * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
       */
      secret: string;
    };
    CreateWebhookDto: {
      /**
       * @description Display name
       * @example CRM sync
       */
      name: string;
      /**
       * @description Public HTTPS endpoint: `https:` only, no user:password, port 443 or 1024–65535, and its host must resolve only to globally routable addresses (no private, loopback, link-local, shared, multicast, documentation or cloud-metadata address, also not in IPv4-mapped or NAT64 form). The check runs again when each delivery connects, so a host that later resolves elsewhere gets nothing. Otherwise 422.
       * @example https://hooks.example.com/switchboard
       */
      url: string;
      /**
       * @description Call event types delivered to this endpoint: a non-empty list without repeats. Each delivery is a POST of `{ type, timestamp, data }` signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers); the `data` of each type is documented in the schemas CallStartedEventData, CallAnsweredEventData, CallCompletedEventData, CallFailedEventData, CallTransferredEventData, CallRecordingAvailableEventData, CallSummaryGeneratedEventData, CallAnalysisCompletedEventData (and WebhookTestEventData for `webhook.test`, which is never subscribed to), all wrapped in WebhookEventEnvelope.
       * @example [
       *       "call.completed",
       *       "call.recording.available"
       *     ]
       */
      events: (
        | 'call.started'
        | 'call.answered'
        | 'call.completed'
        | 'call.failed'
        | 'call.transferred'
        | 'call.recording.available'
        | 'call.summary.generated'
        | 'call.analysis.completed'
      )[];
      /**
       * @description Signing secret: `whsec_` followed by the base64 of 24 to 64 random bytes (anything else is 400). Write-only: it is never returned afterwards. Omit it to have one generated; either way the secret is in the response to this request only.
       * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
       */
      secret?: string;
    };
    WebhookDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example CRM sync */
      name: string;
      /**
       * @description HTTPS destination
       * @example https://hooks.example.com/switchboard
       */
      url: string;
      /**
       * @description Call event types delivered to this endpoint: a non-empty list without repeats. Each delivery is a POST of `{ type, timestamp, data }` signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers); the `data` of each type is documented in the schemas CallStartedEventData, CallAnsweredEventData, CallCompletedEventData, CallFailedEventData, CallTransferredEventData, CallRecordingAvailableEventData, CallSummaryGeneratedEventData, CallAnalysisCompletedEventData (and WebhookTestEventData for `webhook.test`, which is never subscribed to), all wrapped in WebhookEventEnvelope.
       * @example [
       *       "call.completed",
       *       "call.recording.available"
       *     ]
       */
      events: (
        | 'call.started'
        | 'call.answered'
        | 'call.completed'
        | 'call.failed'
        | 'call.transferred'
        | 'call.recording.available'
        | 'call.summary.generated'
        | 'call.analysis.completed'
      )[];
      /**
       * @description false: no event is delivered
       * @example true
       */
      active: boolean;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /**
       * @description Last change by the owner (deliveries do not move it)
       * @example 2026-11-22T10:00:00.000Z
       */
      updatedAt: string;
      /**
       * @description Present when delivery switched the webhook off: `gone` (the endpoint answered 410), `failing` (it kept failing for 5 days), `manual`. Setting active to true clears it.
       * @example gone
       * @enum {string}
       */
      disabledReason?: 'gone' | 'failing' | 'manual';
      /**
       * @description When delivery switched the webhook off; present with disabledReason
       * @example 2026-11-22T10:00:00.000Z
       */
      disabledAt?: string;
    };
    WebhookListDto: {
      /** @description Newest first */
      webhooks: components['schemas']['WebhookDto'][];
      pagination: components['schemas']['PaginationDto'];
    };
    UpdatedWebhookDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example CRM sync */
      name: string;
      /**
       * @description HTTPS destination
       * @example https://hooks.example.com/switchboard
       */
      url: string;
      /**
       * @description Call event types delivered to this endpoint: a non-empty list without repeats. Each delivery is a POST of `{ type, timestamp, data }` signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers); the `data` of each type is documented in the schemas CallStartedEventData, CallAnsweredEventData, CallCompletedEventData, CallFailedEventData, CallTransferredEventData, CallRecordingAvailableEventData, CallSummaryGeneratedEventData, CallAnalysisCompletedEventData (and WebhookTestEventData for `webhook.test`, which is never subscribed to), all wrapped in WebhookEventEnvelope.
       * @example [
       *       "call.completed",
       *       "call.recording.available"
       *     ]
       */
      events: (
        | 'call.started'
        | 'call.answered'
        | 'call.completed'
        | 'call.failed'
        | 'call.transferred'
        | 'call.recording.available'
        | 'call.summary.generated'
        | 'call.analysis.completed'
      )[];
      /**
       * @description false: no event is delivered
       * @example true
       */
      active: boolean;
      /**
       * @description Last change by the owner (deliveries do not move it)
       * @example 2026-11-22T10:00:00.000Z
       */
      updatedAt: string;
    };
    UpdateWebhookDto: {
      /**
       * @description Display name
       * @example CRM sync
       */
      name?: string;
      /**
       * @description Public HTTPS endpoint: `https:` only, no user:password, port 443 or 1024–65535, and its host must resolve only to globally routable addresses (no private, loopback, link-local, shared, multicast, documentation or cloud-metadata address, also not in IPv4-mapped or NAT64 form). The check runs again when each delivery connects, so a host that later resolves elsewhere gets nothing. Otherwise 422.
       * @example https://hooks.example.com/switchboard
       */
      url?: string;
      /**
       * @description Call event types delivered to this endpoint: a non-empty list without repeats. Each delivery is a POST of `{ type, timestamp, data }` signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers); the `data` of each type is documented in the schemas CallStartedEventData, CallAnsweredEventData, CallCompletedEventData, CallFailedEventData, CallTransferredEventData, CallRecordingAvailableEventData, CallSummaryGeneratedEventData, CallAnalysisCompletedEventData (and WebhookTestEventData for `webhook.test`, which is never subscribed to), all wrapped in WebhookEventEnvelope.
       * @example [
       *       "call.completed",
       *       "call.recording.available"
       *     ]
       */
      events?: (
        | 'call.started'
        | 'call.answered'
        | 'call.completed'
        | 'call.failed'
        | 'call.transferred'
        | 'call.recording.available'
        | 'call.summary.generated'
        | 'call.analysis.completed'
      )[];
      /**
       * @description Signing secret: `whsec_` followed by the base64 of 24 to 64 random bytes (anything else is 400). Write-only: it is never returned afterwards. Replaces the current secret at once, without overlap (use the rotate operation for a grace period).
       * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
       */
      secret?: string;
      /**
       * @description false stops deliveries; true enables the webhook again and clears disabledReason and disabledAt.
       * @example true
       */
      active?: boolean;
    };
    RotatedWebhookSecretDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /**
       * @description The new signing secret, shown in this response only
       * @example whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD
       */
      secret: string;
      /**
       * @description Until then deliveries carry two signatures, one per secret; null when the grace period was 0 and the old secret no longer signs
       * @example 2026-11-23T10:00:00.000Z
       */
      previousSecretExpiresAt: string | null;
    };
    RotateWebhookSecretDto: {
      /**
       * @description How long the previous secret keeps signing next to the new one (seconds, up to 7 days; 0 replaces it at once). Rotating again during a grace period drops the older secret.
       * @default 86400
       * @example 86400
       */
      gracePeriodSeconds?: number;
    };
    DeliveryAttemptDto: {
      /**
       * @description 1 for the first attempt
       * @example 1
       */
      attemptNo: number;
      /**
       * @example scheduled
       * @enum {string}
       */
      trigger: 'scheduled' | 'manual' | 'recover' | 'probe';
      /**
       * @example failed
       * @enum {string}
       */
      status: 'succeeded' | 'failed';
      /**
       * @description null: no response
       * @example 503
       */
      responseStatus: number | null;
      /** @example 182 */
      durationMs: number;
      /**
       * @example http_status
       * @enum {string|null}
       */
      errorClass: 'timeout' | 'dns' | 'tls' | 'connect' | 'ssrf_blocked' | 'http_status' | null;
      /** @example 2026-11-22T10:00:00.000Z */
      attemptedAt: string;
      /**
       * @description When this attempt scheduled the next one; null when the delivery ended
       * @example 2026-11-22T10:00:05.000Z
       */
      nextAttemptAt: string | null;
    };
    DeliveryDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /**
       * @description Sent as webhook-id
       * @example msg_01JDQ3Z6V9K4T2N8R5W7X0Y1AB
       */
      eventId: string;
      /** @example call.completed */
      eventType: string;
      /**
       * @description pending: waiting for its next attempt; sending: an attempt is running; held: the webhook's circuit is open (endpoint down), sent once it recovers; succeeded; failed: attempts exhausted or 410; cancelled: the webhook was inactive
       * @example pending
       * @enum {string}
       */
      status: 'pending' | 'sending' | 'held' | 'succeeded' | 'failed' | 'cancelled';
      /** @example 2 */
      attemptCount: number;
      /**
       * @description When the next attempt is due (pending deliveries only)
       * @example 2026-11-22T10:00:35.000Z
       */
      nextAttemptAt: string | null;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /** @description Oldest first */
      attempts: components['schemas']['DeliveryAttemptDto'][];
    };
    DeliveryListDto: {
      /** @description Newest first */
      deliveries: components['schemas']['DeliveryDto'][];
      pagination: components['schemas']['PaginationDto'];
    };
    QueuedDeliveriesDto: {
      /**
       * @description Deliveries queued to be sent again
       * @example 12
       */
      queued: number;
    };
    RecoverDeliveriesDto: {
      /**
       * Format: date-time
       * @description Re-send the deliveries that ended failed at or after this time
       * @example 2026-11-22T00:00:00.000Z
       */
      since: string;
      /**
       * Format: date-time
       * @description …and before this time (default: no end)
       */
      until?: string;
    };
    TestDeliveryDto: {
      /** @example msg_01JDQ3Z6V9K4T2N8R5W7X0Y1AB */
      eventId: string;
      /** @example 65f1c0ffee0123456789abcd */
      deliveryId: string;
    };
    CreateUserDto: {
      /** @example Grace Hopper */
      name: string;
      /**
       * @description Unique across Switchboard; compared case-insensitively
       * @example grace@example.com
       */
      email: string;
      /** @example correct horse battery staple */
      password: string;
      /**
       * @description An admin holds every permission
       * @default member
       * @enum {string}
       */
      role?: 'admin' | 'member';
      /**
       * @default []
       * @example [
       *       "calls",
       *       "dnc"
       *     ]
       */
      permissions?: (
        | 'calls'
        | 'phones'
        | 'dnc'
        | 'agents'
        | 'knowledgeBase'
        | 'messaging'
        | 'videoAgents'
        | 'webhooks'
      )[];
    };
    CreatedApiKeyDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example CRM integration */
      name: string;
      /**
       * @description Send as the x-api-key header. Shown in this response only: it is stored as a hash.
       * @example sb_3f2a9c0d1e4b5a67_Jx1…
       */
      key: string;
      /** @example sb_3f2a9c0d1e4b5a67 */
      prefix: string;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
    };
    CreateApiKeyDto: {
      /** @example CRM integration */
      name: string;
    };
    ApiKeyDto: {
      /** @example 65f1c0ffee0123456789abcd */
      _id: string;
      /** @example CRM integration */
      name: string;
      /**
       * @description The visible start of the key
       * @example sb_3f2a9c0d1e4b5a67
       */
      prefix: string;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
      /** @example 2026-11-22T11:00:00.000Z */
      lastUsedAt: string | null;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RegisterDto'];
      };
    };
    responses: {
      /** @description Organization registered */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Organization registered */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['SessionDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Too many requests; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  login: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LoginDto'];
      };
    };
    responses: {
      /** @description Logged in */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Logged in */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['SessionDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Too many requests; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  me: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Current user */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Current user */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['UserDto'];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  live: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Alive */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Alive */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['LivenessDto'];
          };
        };
      };
    };
  };
  ready: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Ready */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['ReadinessDto'];
          };
        };
      };
      /** @description Not ready */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Prometheus text format 0.0.4 */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  addPhone: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddPhoneDto'];
      };
    };
    responses: {
      /** @description Phone number added */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Phone number added */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['PhoneNumberDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected server error */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listPhones: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Phone numbers fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Phone numbers fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['PhoneNumberListItemDto'][];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  verifyPhone: {
    parameters: {
      query?: {
        /** @description Re-apply the webhook wiring on drift */
        repair?: boolean;
      };
      header?: never;
      path: {
        phoneId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Phone number verified */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Phone number verified */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['PhoneVerificationDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deletePhone: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        phoneId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed from the workspace */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeletePhoneResponseDto'];
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listAgents: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        /** @description Case-insensitive text the agent name must contain (taken literally: % and _ are no wildcards) */
        search?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Agents fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Agents fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['AgentListDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createAgent: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateAgentDto'];
      };
    };
    responses: {
      /** @description Agent created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Agent created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['AgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Voice agent id (24 hex characters) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Agent fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Agent fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['AgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Voice agent id (24 hex characters) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Agent deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Agent deleted */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  updateAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Voice agent id (24 hex characters) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateAgentDto'];
      };
    };
    responses: {
      /** @description Agent updated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Agent updated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['AgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listVoices: {
    parameters: {
      query?: {
        /** @description Video generation mode: only the voices compatible with it. Absent: every voice of the catalogue. Any other value (also an empty one) answers 400. `audio`: the agent is heard only, spoken by a text-to-speech engine (the voices a voice agent’s `voice` may name too). `video`: a talking avatar; its voices come from engines that return word timing with the audio (ElevenLabs, the offline eSpeak NG), which lip-sync needs. */
        mode?: 'audio' | 'video';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Voices fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Voices fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['VoiceDto'][];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createVideoAgent: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateVideoAgentDto'];
      };
    };
    responses: {
      /** @description Video agent created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Video agent created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['VideoAgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getVideoAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Video agent id (24 hex characters) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Video agent fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Video agent fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['VideoAgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteVideoAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Video agent id (24 hex characters) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Video agent deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Video agent deleted */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  downloadFile: {
    parameters: {
      query: {
        /** @description Expiry, Unix seconds */
        expires: number;
        /** @description File name to save as */
        name: string;
        /** @description Media type served */
        type: string;
        /** @description HMAC-SHA256, base64url */
        signature: string;
      };
      header?: never;
      path: {
        /** @description Storage key */
        key: unknown;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file’s bytes, with the media type of the URL */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          knowledgeBaseName: string;
          description?: string;
          /**
           * @description The language of its documents and questions, for full-text search: a PostgreSQL text search configuration (stemming, so "refunds" finds "refund", and stop words), or `simple` (words as written) for a base mixing languages. Changing it re-indexes the base’s passages. Default on create: english.
           * @enum {string}
           */
          language?:
            | 'simple'
            | 'arabic'
            | 'armenian'
            | 'basque'
            | 'catalan'
            | 'danish'
            | 'dutch'
            | 'english'
            | 'finnish'
            | 'french'
            | 'german'
            | 'greek'
            | 'hindi'
            | 'hungarian'
            | 'indonesian'
            | 'irish'
            | 'italian'
            | 'lithuanian'
            | 'nepali'
            | 'norwegian'
            | 'portuguese'
            | 'romanian'
            | 'russian'
            | 'serbian'
            | 'spanish'
            | 'swedish'
            | 'tamil'
            | 'turkish'
            | 'yiddish';
          /** @description Documents, the field repeated once per file (at most 20): PDF, DOCX, and UTF-8 text named .txt, .md, .csv or .html. The type is decided from the bytes (and, for text, the name); anything else answers 415. All files of a request together may hold UPLOAD_MAX_BYTES (413 past it, and nothing is kept). A file whose name is already in the base replaces that document; of two files with one name in a request, the later one is kept. Names are reduced to their last path segment without control characters. */
          files?: string[];
        };
      };
    };
    responses: {
      /** @description Knowledge base created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Knowledge base created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['KnowledgeBaseDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Body or upload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listKnowledgeBases: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        /** @description Case-insensitive text the name must contain (taken literally: % and _ are no wildcards) */
        search?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Knowledge bases fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Knowledge bases fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['KnowledgeBaseSummaryDto'][];
            /** @description Totals of the listing */
            pagination?: components['schemas']['PaginationDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Knowledge base id (24 hex characters) */
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Knowledge base fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Knowledge base fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['KnowledgeBaseDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  updateKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Knowledge base id (24 hex characters) */
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          knowledgeBaseName?: string;
          description?: string;
          /**
           * @description The language of its documents and questions, for full-text search: a PostgreSQL text search configuration (stemming, so "refunds" finds "refund", and stop words), or `simple` (words as written) for a base mixing languages. Changing it re-indexes the base’s passages. Default on create: english.
           * @enum {string}
           */
          language?:
            | 'simple'
            | 'arabic'
            | 'armenian'
            | 'basque'
            | 'catalan'
            | 'danish'
            | 'dutch'
            | 'english'
            | 'finnish'
            | 'french'
            | 'german'
            | 'greek'
            | 'hindi'
            | 'hungarian'
            | 'indonesian'
            | 'irish'
            | 'italian'
            | 'lithuanian'
            | 'nepali'
            | 'norwegian'
            | 'portuguese'
            | 'romanian'
            | 'russian'
            | 'serbian'
            | 'spanish'
            | 'swedish'
            | 'tamil'
            | 'turkish'
            | 'yiddish';
          /** @description Documents, the field repeated once per file (at most 20): PDF, DOCX, and UTF-8 text named .txt, .md, .csv or .html. The type is decided from the bytes (and, for text, the name); anything else answers 415. All files of a request together may hold UPLOAD_MAX_BYTES (413 past it, and nothing is kept). A file whose name is already in the base replaces that document; of two files with one name in a request, the later one is kept. Names are reduced to their last path segment without control characters. */
          files?: string[];
        };
      };
    };
    responses: {
      /** @description Knowledge base updated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Knowledge base updated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['KnowledgeBaseDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Body or upload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Knowledge base id (24 hex characters) */
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Knowledge base deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Knowledge base deleted */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listKnowledgeBaseDocuments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Knowledge base id (24 hex characters) */
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Documents fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Documents fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['KnowledgeBaseDocumentDetailsDto'][];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteKnowledgeBaseDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Knowledge base id (24 hex characters) */
        knowledgeBaseId: string;
        /** @description The document’s fileName */
        fileName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Document deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Document deleted */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  searchKnowledgeBase: {
    parameters: {
      query: {
        /** @description What to look for, as a customer would ask it: passages holding any of its words (in the base’s language: "refunds" finds "refund"; quotes and signs are plain punctuation) and passages close in meaning are found */
        q: string;
        limit?: number;
      };
      header?: never;
      path: {
        /** @description Knowledge base id (24 hex characters) */
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Passages found */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Passages found */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['PassageDto'][];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createMessagingIntegration: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateMessagingIntegrationDto'];
      };
    };
    responses: {
      /** @description Messaging integration created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging integration created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['MessagingIntegrationDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listMessagingNumbers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Messaging numbers fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging numbers fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingIntegrationDto'][];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  updateMessagingIntegration: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a connected business number on the messaging platform (digits) */
        phoneNumberId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateMessagingIntegrationDto'];
      };
    };
    responses: {
      /** @description Messaging integration updated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging integration updated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingIntegrationDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  updateMessagingWebhookUrl: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateMessagingWebhookUrlDto'];
      };
    };
    responses: {
      /** @description Messaging webhook URL updated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging webhook URL updated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingWebhookUrlDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Semantically invalid input */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not ready */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  validateMessagingNumber: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ValidateMessagingNumberDto'];
      };
    };
    responses: {
      /** @description Messaging number validated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging number validated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingNumberValidityDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listAllMessagingTemplates: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Templates fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Templates fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingTemplateDto'][];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listMessagingTemplates: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a connected business number on the messaging platform (digits) */
        phoneNumberId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Templates fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Templates fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingTemplateDto'][];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getMessagingTemplateVariables: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a connected business number on the messaging platform (digits) */
        phoneNumberId: string;
        /** @description The platform’s template id (digits) */
        templateId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Template variables fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Template variables fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['TemplateVariablesDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createMessagingAgent: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateMessagingAgentDto'];
      };
    };
    responses: {
      /** @description Messaging agent created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging agent created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['CreatedMessagingAgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getMessagingAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Messaging agent id (24 hex characters) */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Messaging agent fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging agent fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingAgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  updateMessagingAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Messaging agent id (24 hex characters) */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateMessagingAgentDto'];
      };
    };
    responses: {
      /** @description Messaging agent updated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging agent updated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingAgentDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteMessagingAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Messaging agent id (24 hex characters) */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Messaging agent deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messaging agent deleted */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  verifyMessagingWebhook: {
    parameters: {
      query: {
        'hub.challenge': unknown;
        'hub.verify_token': unknown;
        'hub.mode': unknown;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The challenge, echoed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  receiveMessagingEvent: {
    parameters: {
      query?: never;
      header: {
        'X-Hub-Signature-256': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The platform’s event: { object: "whatsapp_business_account", entry: [...] } */
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Event received */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Event received */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listMessagingConversations: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Conversations fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Conversations fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingConversationListDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listMessagingConversationMessages: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Conversation id (24 hex characters) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Messages fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Messages fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['MessagingMessageDto'][];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  downloadMessagingMessageMedia: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Conversation id (24 hex characters) */
        id: string;
        /** @description Message id (24 hex characters) */
        messageId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file’s bytes, with the media type the platform gave */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The platform no longer holds the media */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  sendMessagingConversationTemplate: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retry-safe send: the same key and body within 24 hours answers the message the first request stored, as it stands now, and sends nothing; another body answers 422, and 409 while the first is still running. Without it, each request sends a template. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Conversation id (24 hex characters) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SendConversationTemplateDto'];
      };
    };
    responses: {
      /** @description Template sent */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Template sent */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['MessagingMessageDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Semantically invalid input */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The telephony provider is down, timed out or failed; errorMessage gives its reason */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerAnswerByGet: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The call instructions (TwiML or Plivo XML). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerAnswer: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    /** @description The provider's callback parameters, in its own format. */
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          [key: string]: unknown;
        };
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The call instructions (TwiML or Plivo XML). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerTransfer: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    /** @description The provider's callback parameters, in its own format. */
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          [key: string]: unknown;
        };
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The call instructions (TwiML or Plivo XML). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerTransferStatus: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    /** @description The provider's callback parameters, in its own format. */
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          [key: string]: unknown;
        };
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The call instructions (TwiML or Plivo XML). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerTransferBriefing: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    /** @description The provider's callback parameters, in its own format. */
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          [key: string]: unknown;
        };
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The call instructions (TwiML or Plivo XML). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerTransferDecision: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    /** @description The provider's callback parameters, in its own format. */
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          [key: string]: unknown;
        };
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The call instructions (TwiML or Plivo XML). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerStatusByGet: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Callback received */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Callback received */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  providerStatus: {
    parameters: {
      query: {
        /** @description The number's callback token. */
        token: unknown;
        /** @description The attempt (phone log id). */
        call?: unknown;
      };
      header?: never;
      path: {
        integration: 'provider_one' | 'provider_two' | 'provider_three';
        /** @description The phone number record the callback is for. */
        phoneId: string;
      };
      cookie?: never;
    };
    /** @description The provider's callback parameters, in its own format. */
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          [key: string]: unknown;
        };
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Callback received */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Callback received */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  hold: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Plivo XML. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/xml': string;
        };
      };
    };
  };
  ringback: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description WAV audio. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'audio/wav': string;
        };
      };
    };
  };
  addDncEntry: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retry-safe add: the same key and body returns the first answer for 24 hours (instead of 400 for a number already listed); another body answers 422, and 409 while the first request is still running. The answer is stored in the same transaction as the entry. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddDncDto'];
      };
    };
    responses: {
      /** @description Number added to the do-not-call list */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Number added to the do-not-call list */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Semantically invalid input */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected server error */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listDncEntries: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        /** @description Matches entries whose phone number contains the digits of the text, or whose type contains the text (case-insensitive) */
        search?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Do-not-call entries fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Do-not-call entries fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['DncListDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  importDncList: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The list, at most UPLOAD_MAX_BYTES (20 MiB by default; larger answers 413). A CSV (UTF-8, comma-separated, header row first) needs a phoneNumber column (any letter case) and may have type (or reason) and source columns; other columns are ignored. A JSON file (part type application/json, or a name ending in .json) is one array of entries `{ phoneNumber, type?, reason?, source? }` or of bare numbers, or an object whose `data` is that array (the JSON export as it is). Numbers are read as the contacts import reads them (E.164, `+` optional, spreadsheet damage survived); type and source are text of at most 100 characters.
           */
          file: string;
        };
      };
    };
    responses: {
      /** @description Do-not-call list imported */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Do-not-call list imported */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['DncImportReportDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Body or upload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  exportDncCsv: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Streamed text/csv */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  exportDncJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Do-not-call list exported */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Do-not-call list exported */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['DncEntryDto'][];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  checkDncNumber: {
    parameters: {
      query: {
        /** @description With country code; `+` optional (send it URL-encoded as %2B); spaces, dots, dashes and parentheses are ignored (`+1 (415) 555-1234`). Checked in E.164. Invalid answers 400. */
        phoneNumber: string;
        /** @description `entry` adds the whole entry (`data.entry`) when the number is listed; without it the answer is { phoneNumber, onDncList, entryId? } only */
        include?: 'entry';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Do-not-call status fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Do-not-call status fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['DncCheckDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteDncEntry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Number removed from the do-not-call list */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Number removed from the do-not-call list */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listBatches: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        /** @description Case-insensitive text matched against batchName or queue_status */
        search?: string;
      };
      header?: never;
      path: {
        userId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Batches fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Batches fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['BatchListDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getBatchDetails: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        /** @description JSON object keyed by phone-log fields (callStatus, callDuration, recordingUrl, transcript, requestUUID, answerOutcome); matched against each call record's latest phone log (null: the field is null there). */
        filter?: string;
        /** @description createdAt, phoneNumber, callStatus, turnLatencyP50 / turnLatencyP95 (the latest phone log's reply latency, its turnLatency, computed per record on request: slower than the other keys on large batches; records without one last), or the name of a contact field */
        sortBy?: string;
        sortOrder?: 'asc' | 'desc';
        /** @description Case-insensitive POSIX regular expression over every string contact field; an invalid pattern answers 400. Backreferences (\1 to \9), a quantifier on a group that already holds one (as in (a+)+ or (.*x){3}) and counts above 20 in {m,n} answer 400: they can take the regular expression engine seconds per record. */
        search?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Batch details fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Batch details fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['BatchDetailsDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createBatch: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retry-safe creation: the same key and request returns the first result for 24 hours; another request answers 422, and 409 while the first is still running. A JSON request is compared by its body, a multipart request by its fields and the SHA-256 of the file. The result is stored in the same transaction as the batch, so a retry after a lost answer gets the same batch; a request that died in flight frees its key within 30 seconds. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateBatchDto'];
        'multipart/form-data': {
          /** @example November renewals */
          batchName: string;
          /** @description Phone record ids: the field repeated, or one JSON array text */
          callingNumbers: string[];
          retry?: number;
          /** @description Endings that earn a retry (default all but fax): repeated, or one JSON array text */
          retryOn?: ('busy' | 'no_answer' | 'failed' | 'voicemail' | 'mailbox_full' | 'fax')[];
          delay?: number;
          /**
           * @description JSON text of the retryPolicy object (see the JSON body)
           * @example {"busy":{"attempts":3,"delay":300},"no_answer":{"attempts":1}}
           */
          retryPolicy?: string;
          /**
           * Format: date-time
           * @example 2026-11-23T14:00:00Z
           */
          startAt?: string;
          /**
           * Format: date-time
           * @example 2026-11-27T22:00:00Z
           */
          endAt?: string;
          /** @example America/New_York */
          timezone?: string;
          /**
           * @description JSON text of { start, end } (HH:MM)
           * @example {"start":"09:00","end":"18:00"}
           */
          callingHour?: string;
          /** @description 0 = Sunday through 6 = Saturday: repeated, or one JSON array text */
          allowedDays?: number[];
          /** @default true */
          enforceCalleeLocalHours?: boolean;
          /** @default false */
          trustContactTimezone?: boolean;
          /**
           * Format: binary
           * @description multipart/form-data: a CSV (UTF-8, comma-separated) in the field `file`, streamed as it arrives, at most UPLOAD_MAX_BYTES (20 MiB by default; larger answers 413). The header row names the columns; one must be phoneNumber (any letter case), the others become contact fields, and an invalid or reserved column name answers 400. Survives spreadsheet damage: a BOM, blank lines, spaces and quotes around cells, a stripped +, ="..." and scientific notation when it carries every digit (1.4155551234E+10; a shortened 1.41556E+10 is invalid_number, its last digits are lost).
           */
          file?: string;
        };
      };
    };
    responses: {
      /** @description Batch created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Batch created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: string;
            /** @description Only when contacts were sent (a contacts array or a file): counts and one error per rejected row, as append-contacts answers */
            contacts?: components['schemas']['ImportReportDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Body or upload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Semantically invalid input */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteBatch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        batchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted for good: hidden from lists and details. Dialing stops at once: no call of the batch is claimed any more; calls already placed finish. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeleteBatchResponseDto'];
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  pauseBatch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        batchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Batch paused */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Batch paused */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['BatchSummaryDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  resumeBatch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        batchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Batch resumed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Batch resumed */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['BatchSummaryDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  cancelBatch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        batchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Batch cancelled */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Batch cancelled */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['BatchSummaryDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  redialBatch: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retry-safe re-dial: the same key and request returns the first answer for 24 hours and changes nothing; another request answers 422, and 409 while the first is still running. The answer is stored in the same transaction as the re-opened contacts. */
        'Idempotency-Key'?: string;
      };
      path: {
        batchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RedialBatchDto'];
      };
    };
    responses: {
      /** @description Batch re-dial scheduled */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Batch re-dial scheduled */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['RedialResultDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Semantically invalid input */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  importContacts: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        batchId: string;
      };
      cookie?: never;
    };
    /** @description application/json: `{ contacts }` (the first schema); multipart/form-data: a CSV in the field `file` (the second schema). */
    requestBody: {
      content: {
        'application/json':
          | components['schemas']['ImportContactsDto']
          | {
              /**
               * Format: binary
               * @description multipart/form-data: a CSV (UTF-8, comma-separated) in the field `file`, streamed as it arrives, at most UPLOAD_MAX_BYTES (20 MiB by default; larger answers 413). The header row names the columns; one must be phoneNumber (any letter case), the others become contact fields, and an invalid or reserved column name answers 400. Survives spreadsheet damage: a BOM, blank lines, spaces and quotes around cells, a stripped +, ="..." and scientific notation when it carries every digit (1.4155551234E+10; a shortened 1.41556E+10 is invalid_number, its last digits are lost).
               */
              file: string;
            };
        'multipart/form-data':
          | components['schemas']['ImportContactsDto']
          | {
              /**
               * Format: binary
               * @description multipart/form-data: a CSV (UTF-8, comma-separated) in the field `file`, streamed as it arrives, at most UPLOAD_MAX_BYTES (20 MiB by default; larger answers 413). The header row names the columns; one must be phoneNumber (any letter case), the others become contact fields, and an invalid or reserved column name answers 400. Survives spreadsheet damage: a BOM, blank lines, spaces and quotes around cells, a stripped +, ="..." and scientific notation when it carries every digit (1.4155551234E+10; a shortened 1.41556E+10 is invalid_number, its last digits are lost).
               */
              file: string;
            };
      };
    };
    responses: {
      /** @description Contacts imported */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Contacts imported */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            /** @example  */
            errorMessage: string;
            data: components['schemas']['ImportReportDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The batch was cancelled (cancel is final) or reached its endAt: nothing was stored */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Body or upload too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unsupported media type */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  exportBatchCsv: {
    parameters: {
      query: {
        /** @description The batch to export */
        batchId: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Streamed text/csv (attachment batch-<batchId>.csv, CRLF lines, RFC 4180 quoting, no BOM), one row per call record in creation order. Columns: _id, phoneNumber, every contact field used in the batch (sorted by name; one named like a fixed column is written as contact.<name>), then the latest phone log: callStatus, callDuration, recordingUrl, transcript, requestUUID, lastCalledAt (empty when never called), then createdAt; times in ISO 8601 UTC. Against formula injection every cell that starts with = + - @, tab or CR gets a leading ' — E.164 numbers too ('+14155551234); the contacts import accepts that form back. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Webhooks fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Webhooks fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['WebhookListDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookDto'];
      };
    };
    responses: {
      /** @description Webhook created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Webhook created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['CreatedWebhookDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Semantically invalid input */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Webhook fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Webhook fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['WebhookDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Webhook deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Webhook deleted */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWebhookDto'];
      };
    };
    responses: {
      /** @description Webhook updated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Webhook updated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['UpdatedWebhookDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Semantically invalid input */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RotateWebhookSecretDto'];
      };
    };
    responses: {
      /** @description Webhook secret rotated */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Webhook secret rotated */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['RotatedWebhookSecretDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        status?: 'pending' | 'sending' | 'held' | 'succeeded' | 'failed' | 'cancelled';
        eventType?: string;
        /** @description Deliveries created at or after this time */
        since?: string;
        /** @description Deliveries created before this time */
        until?: string;
      };
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deliveries fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Deliveries fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['DeliveryListDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  retryWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Delivery queued */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Delivery queued */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 202 */
            code: number;
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  recoverWebhookDeliveries: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RecoverDeliveriesDto'];
      };
    };
    responses: {
      /** @description Recovery queued */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Recovery queued */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 202 */
            code: number;
            data: components['schemas']['QueuedDeliveriesDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  testWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Test event queued */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Test event queued */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 202 */
            code: number;
            data: components['schemas']['TestDeliveryDto'];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listUsers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Users fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example Users fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['UserDto'][];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateUserDto'];
      };
    };
    responses: {
      /** @description User created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example User created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['UserDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Conflicts with an existing resource */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  listApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description API keys fetched */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example API keys fetched */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
            data: components['schemas']['ApiKeyDto'][];
          };
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateApiKeyDto'];
      };
    };
    responses: {
      /** @description API key created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example API key created */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 201 */
            code: number;
            data: components['schemas']['CreatedApiKeyDto'];
          };
        };
      };
      /** @description Invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description API key revoked */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example API key revoked */
            message: string;
            /** @example true */
            status: boolean;
            /** @example 200 */
            code: number;
          };
        };
      };
      /** @description Malformed id */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing, malformed, expired or revoked credentials */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Not allowed for these credentials */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unknown, in another organization, or already deleted: deleting twice answers 404 */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
}

import type { Readable } from 'node:stream';

/** A business phone number as `GET /{phone-number-id}` describes it. */
export interface GraphPhoneNumber {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
}

/** `webhook_configuration` of a phone number; unset keys are absent. */
export interface GraphWebhookConfiguration {
  phone_number?: string;
  whatsapp_business_account?: string;
  application?: string;
}

export type TemplateParameterFormat = 'POSITIONAL' | 'NAMED';

/** One component of a message template (HEADER, BODY, FOOTER, BUTTONS). */
export interface GraphTemplateComponent {
  type: string;
  format?: string;
  text?: string;
  buttons?: GraphTemplateButton[];
  example?: {
    header_text?: string[];
    body_text?: string[][];
    header_text_named_params?: { param_name: string; example: string }[];
    body_text_named_params?: { param_name: string; example: string }[];
  };
}

export interface GraphTemplateButton {
  type: string;
  text?: string;
  url?: string;
  example?: string[];
}

/** A message template as `GET /{waba-id}/message_templates` lists it. */
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameter_format?: TemplateParameterFormat;
  components?: GraphTemplateComponent[];
}

/** A list answer of the Graph API: a page of `data`, `paging.next` absent on the last page. */
export interface GraphPage<T> {
  data: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string; previous?: string };
}

/** The part of a send body that says what is sent (`messaging_product` and `to` are added). */
export type GraphOutgoingMessage =
  | { type: 'text'; text: { body: string; preview_url: boolean } }
  | {
      type: 'template';
      template: {
        name: string;
        language: { code: string; policy: 'deterministic' };
        components: Record<string, unknown>[];
      };
    };

/** Whom a message goes to: their phone number, else their business-scoped user id. */
export type GraphRecipient = { phone: string } | { userId: string };

/** `GET /{media-id}`: a customer's media and its short-lived download URL. */
export interface GraphMedia {
  url: string;
  mime_type?: string;
  sha256?: string;
  file_size?: number;
  id?: string;
}

/** A media download under way: its body as it arrives. */
export interface GraphMediaDownload {
  body: Readable;
  contentType: string | undefined;
  /** The declared length, when the platform gave one. */
  length: number | undefined;
}

/** `POST /{phone-number-id}/messages` answered. */
export interface GraphSendAnswer {
  messaging_product?: string;
  contacts?: { input?: string; wa_id?: string; user_id?: string }[];
  messages?: { id?: string }[];
}

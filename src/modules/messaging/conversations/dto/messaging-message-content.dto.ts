import { ApiProperty } from '@nestjs/swagger';
import type { ChoiceContent, MediaType } from '../inbound-content';

export class MessagingMediaDto {
  @ApiProperty({ example: '1037543291543636', description: "The platform's media id" })
  id!: string;

  @ApiProperty({ enum: ['image', 'audio', 'video', 'document', 'sticker'], example: 'image' })
  type!: MediaType;

  @ApiProperty({ type: String, nullable: true, example: 'image/jpeg' })
  mimeType!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'b1e9a3f0c5d4e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1',
    description: "The file's SHA-256 as the platform reported it",
  })
  sha256!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Is this the lounge?' })
  caption!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'invoice.pdf', description: 'Documents' })
  filename!: string | null;

  @ApiProperty({ example: false, description: 'Audio recorded in the app (a voice note)' })
  voice!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'what time do you open on sunday',
    description:
      "Audio: what the voice runtime's speech-to-text heard (null until heard, or not heard)",
  })
  transcript!: string | null;

  @ApiProperty({
    enum: ['done', 'failed'],
    nullable: true,
    example: 'done',
    description:
      'Audio: whether it was heard (failed: not downloaded, not Ogg Opus, nothing recognised); ' +
      'null until the agent answers it',
  })
  transcription!: 'done' | 'failed' | null;

  @ApiProperty({
    example:
      '/api/messaging/conversations/65f1c0ffee0123456789abcd/messages/65f1c0ffee0123456789abce/media',
    description:
      'Downloads the file from the platform (which keeps incoming media for a limited time)',
  })
  downloadPath!: string;
}

export class MessagingChoiceDto {
  @ApiProperty({
    enum: ['template_button', 'reply_button', 'list'],
    example: 'template_button',
    description:
      'A quick-reply button of a template, a reply button of an interactive message, or a ' +
      'row of a list',
  })
  via!: ChoiceContent['via'];

  @ApiProperty({ example: 'Track my order' })
  title!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ORDER_STATUS',
    description: "The button's payload or the reply's id, as the business set it",
  })
  payload!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Where your parcel is now' })
  description!: string | null;
}

export class MessagingLocationDto {
  @ApiProperty({ example: 37.483307 })
  latitude!: number;

  @ApiProperty({ example: -122.148981 })
  longitude!: number;

  @ApiProperty({ type: String, nullable: true, example: 'Philz Coffee' })
  name!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '101 Forest Ave, Palo Alto, CA 94301' })
  address!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://philzcoffee.com' })
  url!: string | null;
}

export class MessagingContactPhoneDto {
  @ApiProperty({ example: '+1 (650) 555-1234' })
  phone!: string;

  @ApiProperty({ type: String, nullable: true, example: '16505551234' })
  waId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'CELL' })
  type!: string | null;
}

export class MessagingContactCardDto {
  @ApiProperty({ type: String, nullable: true, example: 'Barbara J. Johnson' })
  name!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Acme' })
  organization!: string | null;

  @ApiProperty({ type: [MessagingContactPhoneDto] })
  phones!: MessagingContactPhoneDto[];

  @ApiProperty({ type: [String], example: ['bjohnson@example.com'] })
  emails!: string[];
}

export class MessagingReactionDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '👍',
    description: 'null: the customer removed their reaction',
  })
  emoji!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA',
    description: 'The platform id of the message reacted to',
  })
  messageId!: string | null;
}

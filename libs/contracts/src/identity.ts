/** Areas a member can be granted; an admin holds every one of them. */
export const PERMISSIONS = [
  'calls',
  'phones',
  'dnc',
  'agents',
  'knowledgeBase',
  'messaging',
  'videoAgents',
  'webhooks',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['admin', 'member'] as const;

export type Role = (typeof ROLES)[number];

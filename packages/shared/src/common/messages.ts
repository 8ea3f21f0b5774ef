import { z } from 'zod';

/**
 * Message codes: why a field was refused, what a call did. The server answers `{ code, params }`,
 * the web translates `messages:<code>` with the params. The English text beside each code is
 * what API clients read in an error's `message`; `{{name}}` marks where a param goes.
 */
export const MESSAGES = {
  // Accounts and team
  username_required: 'Username is required',
  full_name_required: 'Full name is required',
  email_invalid: 'Enter a valid email address',
  password_required: 'Password is required',
  password_too_short: 'Password must be at least 8 characters',
  password_needs_number: 'Password must contain a number',
  password_needs_special: 'Password must contain a special character',
  passwords_must_match: 'Passwords must match',
  old_password_required: 'Old Password is required',
  current_password_error: 'Current password error: the new password must differ from the current one.',
  current_password_incorrect: 'Current password error: this is not your current password.',
  login_failed: 'Incorrect password or user not found.',
  phone_invalid: 'Enter a valid phone number',
  reset_code_format: 'Enter the 6-digit code from the email',
  email_taken: 'The email has already been taken.',
  email_invited: 'This email has already been invited.',
  link_invalid: 'This link is invalid or has expired.',
  link_superseded: 'A newer activation link has been sent: open the latest email from Herald.',
  code_expired: 'The code has expired. Request a new link.',
  code_incorrect: 'The code is incorrect.',
  email_link_mismatch: 'The email does not match this link.',
  invitation_invalid: 'This invitation is invalid or has expired.',
  email_invitation_mismatch: 'The email does not match the invitation.',
  owner_not_blockable: 'The account owner cannot be blocked.',
  self_block: 'You cannot block yourself.',
  logged_out: 'Logged out',
  reset_link_sent: 'If the address belongs to an account, a message has been sent to it.',
  email_verified: 'Email verified',
  invitation_removed: 'Invitation removed',
  // Sources, lists, attributes, leads
  name_required: 'Name is required',
  attribute_name_required: 'Attribute name is required',
  attribute_listed_twice: 'The attribute "{{name}}" is listed twice.',
  attribute_exists: 'The attribute "{{name}}" already exists.',
  system_attribute_locked: 'System attributes cannot be changed.',
  system_attribute_undeletable: 'System attributes cannot be deleted.',
  attribute_deleted: 'Attribute deleted',
  value_required: 'Value is required',
  attribute_required: 'Attribute is required',
  source_required: 'Select a source',
  list_required: 'Select a list',
  values_required: 'Add at least one value.',
  unknown_attribute: 'Unknown attribute.',
  value_exists: 'The lead already has this value.',
  last_value: 'A lead keeps at least one value; delete the lead instead.',
  value_kind_mismatch: 'Use {{kind}} for a {{type}} attribute.',
  list_not_in_source: 'The list does not belong to this source.',
  lead_not_found: 'Lead not found.',
  source_not_found: 'Source not found.',
  list_not_found: 'List not found.',
  value_not_found: 'Value not found.',
  attribute_not_found: 'Attribute not found.',
  page_size_invalid: 'Use 20, 50 or 100',
  order_invalid: 'Use field,asc or field,desc',
  invalid_phone: '"{{value}}" is not a valid phone number',
  invalid_email: '"{{value}}" is not a valid email',
  invalid_number: '"{{value}}" is not a number',
  invalid_date: '"{{value}}" is not a date (YYYY-MM-DD)',
  invalid_url: '"{{value}}" is not a link (http:// or https://)',
  ignored_phone: '{{value}} matches an ignored phone format and was not stored',
  leads_status_set: '{{count}} lead(s) set to {{status}}',
  leads_status_already: '{{count}} lead(s) already {{status}}',
  status_not_bulk: 'Several leads can be set only to active, blacklisted or flagged.',
  leads_not_found: '{{count}} lead(s) not found',
  phone_pattern_invalid: 'Not a phone pattern: {{lines}}. Use digits, X for any digit and * for any digits.',
  // Audiences (segments) and exports
  filter_required: 'Choose a filter.',
  operator_required: 'Choose an operator.',
  filter_values_required: 'Choose at least one value.',
  filter_one_value: 'Choose exactly one value.',
  filter_value_invalid: '"{{value}}" is not a valid value.',
  filter_operator: 'This filter cannot use {{operator}}.',
  unknown_filter: 'Unknown filter.',
  one_source_filter: 'Only one source filter is allowed.',
  one_list_filter: 'Only one list filter is allowed.',
  source_before_list: 'Choose a source before a list.',
  segment_parent_filters: 'A segment narrows its audience: source and list filters belong to the audience.',
  unknown_source: 'Unknown source.',
  unknown_list: 'Unknown list.',
  segment_not_found: 'Segment not found.',
  export_not_found: 'Export not found.',
  attributes_required: 'Choose at least one attribute.',
  empties_only: 'Only empty and not empty conditions belong here.',
  conditions_no_sources: 'Sources and lists have their own calls.',
  one_filter_of_kind: 'Each of SMS status, engagement, engagement period and campaigns is allowed once.',
  engagement_period_needs_engaged: 'Engagement period needs an engagement filter that includes engaged.',
  unknown_campaign: 'Unknown campaign.',
  campaign_segment_unavailable: 'Segments can be made from completed, failed and paused campaigns.',
  campaign_segment_filter_required: 'Choose an SMS status or an engagement.',
  // Imports
  no_mapped_value: 'No value in any mapped column',
  value_too_long: 'A value is longer than {{count}} characters',
  source_first: 'Please, select a Source first',
  file_required: 'Choose a file to import.',
  unknown_column: 'Unknown column.',
  lookups_unavailable: 'Mobile status checks are not available yet.',
  black_list_flag: 'Use 1 or 0 for black_list.',
  // Lookups (decision 040)
  lookup_has_been_started: 'Lookup has been started',
  lookups_have_been_started: 'Selected lookups have been started',
  lookup_started: 'Lookup started',
  lookup_stopped: 'Lookup stopped',
  lookup_phones_left: '{{left}} phones left',
  lookup_completed: 'Completed',
  lookup_deleted: 'Lookup deleted',
  lookup_list_deleted:
    'The list was deleted: the lookup ended and what was paid for phones not looked up was refunded.',
  lookup_not_found: 'Lookup not found.',
  lookup_move_invalid: 'This lookup cannot be started or stopped from its status.',
  lookup_running_locked: 'A running lookup cannot be changed: stop it first.',
  lookup_gateway_missing: 'Add an active SMS gateway that allows lookups in Settings first.',
  lookup_gateway_unusable: 'This gateway does not allow lookups.',
  lookup_list_empty: 'The list has no phones to look up.',
  // Billing: balance, top-up, share, subscribe
  amount_invalid: 'Please enter correct amount',
  amount_correct_number: 'Correct number',
  balance_not_enough: 'Not enough balance',
  balance_not_enough_messages: 'Not enough balance to send messages',
  balance_not_enough_lookup: 'Insufficient funds to continue paid lookup!',
  balance_debt:
    'A payment to your balance was taken back by the bank and you owe it. Top up your balance to pay it, then send again.',
  share_balance_successful: 'Share balance Successful',
  share_to_self: 'Choose another member to share with.',
  member_not_found: 'Member not found.',
  subscribed_to_plan: 'Successfully subscribed to new plan',
  plan_not_purchasable: 'This plan cannot be bought; contact us.',
  plan_already_active: 'This plan is already yours; it renews each month from the balance.',
  plan_not_found: 'Plan not found.',
  redirect_url_invalid: 'The return address must be a page of this application.',
  sms_test_sent: '10 SMS counted against your free SMS.',
  // Plans (decision 015): what the plan does not allow; {{limit}} is the plan's value
  plan_limit_sources: 'Your plan allows {{limit}} sources. Delete one or change your plan.',
  plan_limit_lists: 'Your plan allows {{limit}} lists. Delete one or change your plan.',
  plan_limit_audiences: 'Your plan allows {{limit}} audiences. Delete one or change your plan.',
  plan_limit_attributes: 'Your plan allows {{limit}} attributes. Delete one or change your plan.',
  plan_limit_team_members: 'Your plan allows {{limit}} team members, invitations included.',
  plan_limit_leads: 'Your plan allows {{limit}} leads. Delete some or change your plan.',
  plan_limit_alpha_names: 'You have reached your free alpha names ({{limit}}).',
  plan_limit_free_sms: 'Not enough free SMS left this period (the plan gives {{limit}}).',
  plan_limit_import: 'Not enough left of your import limit this period (the plan gives {{limit}}).',
  plan_limit_history: 'Your plan keeps {{limit}} days of history.',
  plan_feature_manage_team: 'Your plan does not include team management.',
  plan_feature_short_url_domain: 'Your plan does not include short-link domains.',
  plan_test_imported: '10 contacts counted against your import limit.',
  free_sms_unavailable: 'Sending SMS is not available yet.',
  // SMS gateways
  gateway_not_found: 'Gateway not found.',
  gateway_field_required: 'Fill in {{field}}.',
  gateway_field_invalid: '{{field}} is not valid.',
  gateway_public_key_invalid: '{{field}} is not an Ed25519 public key: copy it, in base64, from the provider portal.',
  gateway_default_locked: 'The default gateway cannot be changed or deleted: make another gateway the default first.',
  gateway_default_unusable: 'Only an active gateway that sends messages can be the default.',
  gateway_lookup_unsupported: 'This gateway type has no carrier lookup.',
  gateway_deleted: 'Gateway deleted',
  gateway_connected: 'Connected',
  gateway_auth_failed: 'The provider refused the credentials.',
  gateway_unreachable: 'The provider could not be reached.',
  gateway_rejected: 'The provider refused the request.',
  gateway_provider_error: 'The provider answered with an error; try again later.',
  webhook_unverified: 'The report could not be verified.',
  // Templates and alpha names
  template_too_short: 'A template needs at least 5 characters.',
  template_not_found: 'Template not found.',
  default_template_locked: 'Default templates cannot be changed or deleted.',
  template_saved: 'Template saved',
  template_deleted: 'Template deleted',
  invalid_url_plain: 'Enter a link that starts with http:// or https://',
  alpha_name_invalid: 'Up to 11 Latin letters, digits, spaces and . - _ &, with at least one letter.',
  alpha_name_taken: 'The team already has this alpha name.',
  alpha_name_not_found: 'No such alpha name.',
  alpha_name_not_active: 'Only an active alpha name can be the default.',
  alpha_names_limit_reached: 'You have reached your free alpha names',
  alpha_name_created: 'You have created new alpha name',
  alpha_name_default_changed: 'You have change default alpha name',
  alpha_name_approved: 'Alpha name approved',
  alpha_name_rejected: 'Alpha name rejected',
  alpha_name_already_reviewed: 'This alpha name has already been reviewed.',
  no_alpha_names: 'No Alpha Names Found',
  // zod's own checks (see zod-messages.ts): lengths, sizes, types and choices
  text_too_long: 'Too long: at most {{max}} characters',
  text_unstorable: 'The text contains a character that cannot be stored.',
  country_unknown: 'Choose a country from the list.',
  text_too_short: 'Too short: at least {{min}} characters',
  too_many_items: 'Too many at once: at most {{max}}',
  too_few_items: 'Too few: at least {{min}}',
  number_too_big: 'Too large: the limit is {{limit}}',
  number_too_small: 'Too small: the limit is {{limit}}',
  required: 'Value is required',
  wrong_type: 'This value has the wrong type',
  invalid_option: 'Choose one of the offered options',
  invalid_value: 'Invalid value',
  // Request demo
  phone_required: 'Phone is required',
  demo_requested: 'Success Demo',
  // Messages: single SMS, statuses, opt-out
  sms_sent: 'Message sent',
  sms_send_unknown: 'The gateway did not confirm the message; its status will follow.',
  sms_send_failed: 'The gateway refused the message.',
  sms_gateway_required: 'Add an active SMS gateway first.',
  sms_gateway_not_sending: 'This gateway does not send messages.',
  sms_sender_invalid: 'Choose an active alpha name or a phone number as the sender.',
  sms_phone_blacklisted: 'This phone is blacklisted: messages to it are not sent.',
  sms_phone_ignored: 'This phone is in the ignored formats.',
  sms_lead_without_phone: 'The lead has no phone to send to.',
  link_unavailable: 'Short links are not available yet: remove the link placeholder from the message.',
  sms_redirect_required: 'Enter the link the message leads to.',
  placeholder_unknown: 'No attribute has the placeholder {{placeholders}}: insert one from the list, or remove it.',
  // Short links and short URL domains
  short_url_domain_invalid: 'Enter a domain name such as go.example.com (no path).',
  short_url_domain_taken: 'This domain is already in use.',
  short_url_domain_port: 'A domain takes no port: enter it as go.example.com.',
  short_url_domain_app_host:
    'This is the app’s own address: it already carries your links. Enter a domain of your own.',
  short_url_domain_not_proven:
    'Not verified yet: {{host}} does not answer the code at the address shown, and no TXT record holds it. DNS changes can take up to an hour.',
  short_url_domain_verified: 'Domain verified: new links use it',
  short_url_domain_not_found: 'No such domain.',
  short_url_domain_created: 'Domain added',
  short_url_domain_updated: 'Domain updated',
  short_url_domain_deleted: 'Domain deleted',
  no_short_url_domains: 'No Domains Found',
  redirect_target_invalid: 'Enter a link that starts with http:// or https://',
  // Campaigns (decision 031)
  campaign_not_found: 'Campaign not found.',
  campaign_step_not_found: 'Step not found.',
  campaign_audience_not_found: 'This audience is not in the campaign.',
  campaign_not_editable: 'Only draft, scheduled and paused campaigns can be edited.',
  campaign_field_fixed: 'The campaign has started: its gateway, sender, time zone and start no longer change.',
  campaign_audience_draft_only: 'The audience can be changed only while the campaign is a draft.',
  campaign_steps_draft_only: 'Steps can be added or deleted only while the campaign is a draft.',
  campaign_step_not_editable: 'This step has been sent and can no longer be changed.',
  campaign_not_testable: 'Only draft, scheduled and paused campaigns can be tested.',
  campaign_not_deletable: 'A campaign that is being sent cannot be deleted: pause it first.',
  campaign_status_not_allowed: 'The campaign cannot be set to this status now.',
  campaign_version_conflict: 'The campaign was changed meanwhile: reload it and try again.',
  campaign_start_invalid: 'Enter the start as YYYY-MM-DD HH:mm.',
  campaign_time_invalid: 'Enter a time as HH:mm.',
  timezone_invalid: 'Choose a time zone from the list.',
  campaign_gateway_required: 'Choose a gateway.',
  campaign_gateway_unusable: 'Choose an active gateway that sends messages.',
  campaign_sender_required: 'Choose a sender: an alpha name or a phone number.',
  campaign_sender_unusable: "Choose one of the team's active alpha names or the gateway's own sender.",
  campaign_domain_unusable: "Choose one of the team's verified short-URL domains, or the default.",
  campaign_audience_required: 'Add an audience, a source or a list.',
  campaign_steps_required: 'Add a step with a message.',
  campaign_message_required: 'Enter the message.',
  campaign_steps_limit: 'A campaign has at most {{max}} steps.',
  campaign_redirect_unused: 'The link is set but the message has no link placeholder.',
  campaign_policy_not_enough_balance: 'The campaign was paused: not enough balance to send messages.',
  campaign_deleted: 'Campaign deleted',
  campaigns_deleted: '{{count}} campaign(s) deleted',
  campaigns_status_changed: '{{count}} campaign(s) changed',
  campaign_updated: 'Campaign updated',
  campaign_step_deleted: 'Step deleted',
  campaign_audience_removed: 'Removed from the campaign',
  no_campaigns: 'No Campaigns Found',
} as const;

export type TMessageCode = keyof typeof MESSAGES;
export type TMessageParams = Record<string, string | number>;
export type TMessage = { code: TMessageCode; params?: TMessageParams };

export const MESSAGE_CODES = Object.keys(MESSAGES) as TMessageCode[];

/** On the wire the code is a plain string: a client may know fewer codes than the server. */
export const ZMessage = z.object({
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

export function message(code: TMessageCode, params?: TMessageParams): TMessage {
  return params ? { code, params } : { code };
}

export function isMessageCode(code: string): code is TMessageCode {
  return Object.hasOwn(MESSAGES, code);
}

/** A 200 answer that only says what was done: in English for API clients, and its code. */
export const ZDone = z.object({ message: z.string(), code: z.string() });

export function done(code: TMessageCode): z.infer<typeof ZDone> {
  return { message: englishOf({ code }), code };
}

/** The English text of a message, for API clients and logs; the web translates the code. */
export function englishOf(m: { code: string; params?: TMessageParams }): string {
  const template: string = isMessageCode(m.code) ? MESSAGES[m.code] : m.code;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(m.params?.[name] ?? ''));
}

/**
 * A message as one string, where only a string fits: zod's issue `message` (a schema's own check,
 * read by the server's 422 and the browser's forms alike) and a failed import row's stored reason.
 * `code` alone, or `code?name=value&…` with the params URL-encoded.
 */
export function encodeMessage(m: { code: string; params?: TMessageParams }): string {
  const params = m.params && Object.keys(m.params).length > 0 ? m.params : undefined;
  if (!params) return m.code;
  return `${m.code}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;
}

/** The message of an encoded string; anything else (an older English sentence) is its own code. */
export function decodeMessage(text: string): { code: string; params?: TMessageParams } {
  const match = /^([a-z][a-z0-9_]*)(?:\?(.*))?$/s.exec(text);
  if (!match) return { code: text };
  const [, code, query] = match;
  return query === undefined ? { code } : { code, params: Object.fromEntries(new URLSearchParams(query)) };
}

/** Shorthand for a schema's own check: its message is the code (with params, encoded). */
export function messageText(code: TMessageCode, params?: TMessageParams): string {
  return encodeMessage(message(code, params));
}

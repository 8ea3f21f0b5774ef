import { i18n } from './i18n.ts';

/**
 * The system attributes (the only phone and e-mail ones; custom attributes cannot have those
 * types) are named by the server in English; show them in the chosen language.
 */
export function attributeLabel(attribute: { name: string; type: string }): string {
  if (attribute.type === 'phone') return i18n.t('common:attribute.phone');
  if (attribute.type === 'email') return i18n.t('common:attribute.email');
  return attribute.name;
}

/** The same for a name alone (Timeline entries carry the attribute's name only). */
export function attributeNameLabel(name: string): string {
  if (name === 'Phone') return i18n.t('common:attribute.phone');
  if (name === 'Email') return i18n.t('common:attribute.email');
  return name;
}

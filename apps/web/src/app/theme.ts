import { createTheme, PasswordInput } from '@mantine/core';

const base = {
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
} as const;

/**
 * The theme in the user's language: Mantine's own words (the password field's show/hide button,
 * read by screen readers) are English otherwise.
 */
export function themeFor(togglePasswordLabel: string) {
  return createTheme({
    ...base,
    components: {
      PasswordInput: PasswordInput.extend({
        defaultProps: { visibilityToggleButtonProps: { 'aria-label': togglePasswordLabel } },
      }),
    },
  });
}

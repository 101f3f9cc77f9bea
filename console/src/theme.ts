import { createTheme } from '@mantine/core';

/** Mantine's defaults, with the system font stack (the page loads no font from anywhere). */
export const theme = createTheme({
  primaryColor: 'indigo',
  // A person who asked their system for less motion gets no transitions (dialogs, menus).
  respectReducedMotion: true,
  // indigo.7 on white keeps text and buttons above WCAG AA contrast.
  primaryShade: 7,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

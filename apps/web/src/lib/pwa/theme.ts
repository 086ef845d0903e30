// The colour of the installed window's title bar per theme: the console's own page background
// (--bg in globals.css), so the frame and the page read as one surface.
export const APP_THEME_COLOURS = { dark: "#15171a", light: "#f6f7f9" } as const;

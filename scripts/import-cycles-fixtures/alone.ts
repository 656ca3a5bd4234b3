// Imported by the circle but importing nothing back: not part of it.
export const alone = 1;

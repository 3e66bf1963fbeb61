/** Only same-site paths are followed, so a crafted link cannot send a fresh login elsewhere. */
export function safeRedirect(value: string | null): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/' || value.startsWith('/login') || value.startsWith('/?')) return null;
  return value;
}

import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** http(s) addresses and e-mail addresses in a line of text. */
const linkPattern = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]])|([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g;

/** A line as text with its addresses as links (http(s) and mailto only); never parsed as HTML. */
export function linkify(line: string, keyPrefix = ''): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of line.matchAll(linkPattern)) {
    const at = match.index ?? 0;
    if (at > last) parts.push(line.slice(last, at));
    const [text, url, email] = match;
    parts.push(
      url ? (
        <Anchor key={`${keyPrefix}${at}`} href={url} target="_blank" rel="noopener noreferrer">
          {text}
        </Anchor>
      ) : (
        <Anchor key={`${keyPrefix}${at}`} href={`mailto:${email}`}>
          {text}
        </Anchor>
      ),
    );
    last = at + text.length;
  }
  if (last < line.length) parts.push(line.slice(last));
  return parts;
}

type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'paragraph'; lines: string[] };

/** Blocks of the admin's text: `## ` lines are headings, `- ` lines list items, the rest paragraphs. */
export function blocksOf(body: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trimEnd();
    const last = blocks.at(-1);
    if (!line.trim()) {
      if (last?.kind !== 'heading') blocks.push({ kind: 'paragraph', lines: [] });
      continue;
    }
    if (/^#{1,3}\s/.test(line)) blocks.push({ kind: 'heading', text: line.replace(/^#{1,3}\s+/, '') });
    else if (/^[-*]\s/.test(line)) {
      const item = line.replace(/^[-*]\s+/, '');
      if (last?.kind === 'list') last.items.push(item);
      else blocks.push({ kind: 'list', items: [item] });
    } else if (last?.kind === 'paragraph') last.lines.push(line);
    else blocks.push({ kind: 'paragraph', lines: [line] });
  }
  return blocks.filter((b) => b.kind !== 'paragraph' || b.lines.length > 0);
}

/** The FAQ or contacts text, rendered as React text nodes (no HTML from the stored text ever runs). */
export function ContentText({ body }: { body: string }) {
  return (
    <Stack gap="sm">
      {blocksOf(body).map((block, i) => {
        const key = `${block.kind}-${i}`;
        if (block.kind === 'heading')
          return (
            <Title key={key} order={2} fz="h4" mt={i ? 'sm' : 0}>
              {block.text}
            </Title>
          );
        if (block.kind === 'list')
          return (
            <List key={key} spacing={4}>
              {block.items.map((item, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the items have no id and never reorder
                <List.Item key={j}>{linkify(item)}</List.Item>
              ))}
            </List>
          );
        return (
          <Text key={key} style={{ overflowWrap: 'anywhere' }}>
            {block.lines.flatMap((line, j) =>
              j
                ? // biome-ignore lint/suspicious/noArrayIndexKey: the lines have no id and never reorder
                  [<br key={`br-${j}`} />, ...linkify(line, `${j}-`)]
                : linkify(line, `${j}-`),
            )}
          </Text>
        );
      })}
    </Stack>
  );
}

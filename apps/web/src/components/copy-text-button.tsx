import { Button, CopyButton } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';

/** A button that copies `value` and says so for a moment, in the page's own words. */
export function CopyTextButton({
  value,
  label,
  copiedLabel,
}: {
  value: string;
  label: string;
  copiedLabel: string;
}) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant="light"
          onClick={copy}
          style={{ flexShrink: 0 }}
          leftSection={<IconCopy size={14} aria-hidden />}
        >
          {copied ? copiedLabel : label}
        </Button>
      )}
    </CopyButton>
  );
}

import { Avatar } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';

export function AgencyLogo({
  logo,
  title,
  size = 48,
}: {
  logo: string | null;
  title: string;
  size?: number;
}) {
  return (
    <Avatar src={logo} alt={title} size={size} radius="md" color="indigo" variant="light">
      <IconBuildingSkyscraper size={size * 0.55} aria-hidden />
    </Avatar>
  );
}

// The console's pages in navigation order. Later pages join this list as they are built.
export interface NavigationEntry {
  to: string;
  label: string;
  description: string;
}

export const NAVIGATION: readonly NavigationEntry[] = [
  {
    to: '/event-types',
    label: 'Event types',
    description: 'Activity-log event types by module and object type',
  },
];

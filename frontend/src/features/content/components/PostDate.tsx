const format = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** A YYYY-MM-DD date as words, the same in every time zone. */
export function PostDate({ date }: { date: string }) {
  return <time dateTime={date}>{format.format(new Date(`${date}T00:00:00Z`))}</time>;
}

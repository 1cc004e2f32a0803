/**
 * `greeting-banner` (docs/MANIFEST-SCHEMA.md; `slot: "top"`): a greeting for the person's time of
 * day (their browser's clock), the instance name and the day shown, and one of the card's own
 * messages when it has any (`data`: a list of short strings, or of `{text}` / `{message}`).
 *
 * The older app showed `data[0]` and moved it to the end of the list each new day, a write on
 * every first load. Here the banner only reads: the message is picked by the date (day number
 * modulo the list length), so it still changes every day, the same on every device, and the
 * card's data is never rewritten by looking at it.
 */
import { useEffect, useState } from 'preact/hooks';
import { daysBetween } from '../../src/common/dates.js';
import { useCardData } from '../lib/card-data.js';
import { longDate } from '../lib/dates.js';
import { instance } from '../lib/instance.js';
import type { RendererProps } from './registry.js';
import '../styles/cards/greeting-banner.css';

/** The greeting for an hour of the day (0–23). */
export function greetingFor(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Good morning';
  if (hour >= 12 && hour < 18) return 'Good afternoon';
  if (hour >= 18 && hour < 23) return 'Good evening';
  return 'Hello, night owl';
}

/**
 * The list of messages in `data`: the list itself, the one list of an object holding one
 * (`{"messages": [...]}`, as hand-written files and other tools put it), a single text, or a
 * single message object (`{"text": ...}`).
 */
function messageList(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (typeof data === 'string') return [data];
  if (data === null || typeof data !== 'object') return [];
  const lists = Object.values(data).filter(Array.isArray);
  if (lists.length === 1) return lists[0];
  // one message written as the object a list holds (`{"text": "Drink water"}`)
  const one = data as Record<string, unknown>;
  return typeof one.text === 'string' || typeof one.message === 'string' ? [data] : [];
}

/**
 * The card's messages: non-empty strings, or the `text` / `message` of objects, from a list, an
 * object holding one list, or a single text.
 */
export function greetingMessages(data: unknown): string[] {
  const out: string[] = [];
  for (const m of messageList(data)) {
    const text =
      typeof m === 'string'
        ? m
        : m !== null && typeof m === 'object'
          ? ((m as Record<string, unknown>).text ?? (m as Record<string, unknown>).message)
          : undefined;
    if (typeof text === 'string' && text.trim() !== '') out.push(text.trim());
  }
  return out;
}

/** The message of `date` (`YYYY-MM-DD`): one per day, in list order, round and round. */
export function messageOfDay(messages: string[], date: string): string | undefined {
  if (messages.length === 0) return undefined;
  const n = daysBetween('1970-01-01', date);
  return messages[((n % messages.length) + messages.length) % messages.length];
}

function useHour(): number {
  const [hour, setHour] = useState(() => new Date().getHours());
  useEffect(() => {
    const t = setInterval(() => setHour(new Date().getHours()), 60_000);
    return () => clearInterval(t);
  }, []);
  return hour;
}

export function GreetingBanner({ card, date, live }: RendererProps) {
  const { data } = useCardData(card.id);
  const hour = useHour();
  const name = instance.value?.name ?? 'Klebb';
  const message = messageOfDay(greetingMessages(data), date);
  return (
    <div class="greeting-banner" data-hour={hour}>
      <p class="greeting-hello">{live ? greetingFor(hour) : 'Looking back'}</p>
      <p class="greeting-day">
        {longDate(date)} · <span class="greeting-instance">{name}</span>
      </p>
      {message && <p class="greeting-message">{message}</p>}
    </div>
  );
}

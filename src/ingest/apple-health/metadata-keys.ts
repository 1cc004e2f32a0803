/**
 * The key of a `<MetadataEntry>` as the Health app writes it. HealthKit's metadata constants are
 * named `HKMetadataKey<Name>` and most hold the text `HK<Name>` (HKMetadataKeyTimeZone is
 * `HKTimeZone`), which is what export.xml carries; an app or converter that writes the export
 * format itself, or a file edited by hand, often writes the constant's name instead
 * (`<MetadataEntry key="HKMetadataKeyTimeZone" value="Europe/Berlin"/>`). Both name one entry.
 */

const CONSTANT_PREFIX = 'HKMetadataKey';

/**
 * `key` in the Health app's spelling: `HKMetadataKeyTimeZone` → `HKTimeZone`,
 * `HKMetadataKeyInsulinDeliveryReason` → `HKInsulinDeliveryReason`; any other key as it is.
 */
export function metadataKey(key: string): string {
  return key.startsWith(CONSTANT_PREFIX) && key.length > CONSTANT_PREFIX.length
    ? `HK${key.slice(CONSTANT_PREFIX.length)}`
    : key;
}

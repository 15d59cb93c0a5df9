import type { Knex } from 'knex';

// Filters (docs/webhooks.md#filters, docs/adr/0087-subscription-filters.md): a subscription may carry a filter on
// the event's payload; an event it rejects gets no delivery row. The column is null for a subscription without
// one, and the fan-out asks `filter IS NULL OR sb_filter_matches(filter, payload)`, so an unfiltered subscription
// costs one null test per event.
//
// sb_filter_matches is the one evaluator of the grammar: the API validates a filter's shape and bounds before it
// is stored (src/webhooks/filter-grammar.ts), so the function trusts it, and it never raises: a fan-out that
// raised would roll back the action that emitted the event. What it does with each operator:
//
// - A path is dotted; `#>` walks it through objects (and arrays, by a numeric segment). Missing and JSON null
//   are the same: absent.
// - $eq (or a bare literal) and $in compare with jsonb equality (numbers by value); against an array value they
//   match when an element does. null as the operand matches an absent value. $ne and $nin are their negations.
// - $gt/$gte/$lt/$lte compare two numbers, or two strings by code point; $startsWith two strings; against an
//   array, any element; any other pairing (an absent value, a type mismatch) does not match.
// - $exists: true when the value is present and not null.
// - $and/$or take lists of filters, $not one filter; the keys of one object are all required (an implicit $and).

const TEST_FUNCTION = `
CREATE FUNCTION sb_filter_test(v jsonb, op text, o jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
BEGIN
  IF op = '$exists' THEN RETURN (v IS NOT NULL) = (o = 'true'::jsonb); END IF;
  IF op IN ('$eq', '$ne', '$in', '$nin') THEN
    RETURN (op IN ('$ne', '$nin')) <> EXISTS (
      SELECT 1
        FROM (SELECT o AS x WHERE op IN ('$eq', '$ne')
              UNION ALL SELECT x FROM jsonb_array_elements(CASE WHEN op IN ('$in', '$nin') THEN o END) AS x) AS want
       WHERE CASE WHEN want.x = 'null'::jsonb THEN v IS NULL
                  ELSE v = want.x OR (jsonb_typeof(v) = 'array' AND EXISTS (
                         SELECT 1 FROM jsonb_array_elements(v) AS e WHERE e = want.x)) END);
  END IF;
  IF v IS NULL THEN RETURN false; END IF;
  IF jsonb_typeof(v) = 'array' THEN
    RETURN EXISTS (SELECT 1 FROM jsonb_array_elements(v) AS e WHERE jsonb_typeof(e) <> 'array'
                                                                 AND sb_filter_test(e, op, o));
  END IF;
  IF jsonb_typeof(v) = 'number' AND jsonb_typeof(o) = 'number' THEN
    RETURN CASE op WHEN '$gt' THEN v::numeric > o::numeric WHEN '$gte' THEN v::numeric >= o::numeric
                   WHEN '$lt' THEN v::numeric < o::numeric WHEN '$lte' THEN v::numeric <= o::numeric
                   ELSE false END;
  END IF;
  IF jsonb_typeof(v) = 'string' AND jsonb_typeof(o) = 'string' THEN
    RETURN CASE op WHEN '$gt' THEN (v #>> '{}') COLLATE "C" > (o #>> '{}') COLLATE "C"
                   WHEN '$gte' THEN (v #>> '{}') COLLATE "C" >= (o #>> '{}') COLLATE "C"
                   WHEN '$lt' THEN (v #>> '{}') COLLATE "C" < (o #>> '{}') COLLATE "C"
                   WHEN '$lte' THEN (v #>> '{}') COLLATE "C" <= (o #>> '{}') COLLATE "C"
                   WHEN '$startsWith' THEN starts_with(v #>> '{}', o #>> '{}')
                   ELSE false END;
  END IF;
  RETURN false;
END
$fn$`;

const MATCHES_FUNCTION = `
CREATE FUNCTION sb_filter_matches(p_filter jsonb, p_payload jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
  k text;
  c jsonb;
  v jsonb;
  op text;
  o jsonb;
BEGIN
  IF jsonb_typeof(p_filter) IS DISTINCT FROM 'object' THEN RETURN false; END IF;
  FOR k, c IN SELECT * FROM jsonb_each(p_filter) LOOP
    IF k = '$and' THEN
      IF jsonb_typeof(c) <> 'array' OR EXISTS (
        SELECT 1 FROM jsonb_array_elements(c) AS f WHERE NOT sb_filter_matches(f, p_payload)) THEN RETURN false; END IF;
    ELSIF k = '$or' THEN
      IF jsonb_typeof(c) <> 'array' OR NOT EXISTS (
        SELECT 1 FROM jsonb_array_elements(c) AS f WHERE sb_filter_matches(f, p_payload)) THEN RETURN false; END IF;
    ELSIF k = '$not' THEN
      IF jsonb_typeof(c) <> 'object' OR sb_filter_matches(c, p_payload) THEN RETURN false; END IF;
    ELSE
      v := p_payload #> string_to_array(k, '.');
      IF v = 'null'::jsonb THEN v := NULL; END IF;
      IF jsonb_typeof(c) = 'object' THEN
        FOR op, o IN SELECT * FROM jsonb_each(c) LOOP
          IF NOT sb_filter_test(v, op, o) THEN RETURN false; END IF;
        END LOOP;
      ELSIF NOT sb_filter_test(v, '$eq', c) THEN
        RETURN false;
      END IF;
    END IF;
  END LOOP;
  RETURN true;
END
$fn$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN filter jsonb
    CONSTRAINT webhooks_filter_object CHECK (jsonb_typeof(filter) = 'object')`);
  await knex.raw(TEST_FUNCTION);
  await knex.raw(MATCHES_FUNCTION);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION sb_filter_matches(jsonb, jsonb)`);
  await knex.raw(`DROP FUNCTION sb_filter_test(jsonb, text, jsonb)`);
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN filter`);
}

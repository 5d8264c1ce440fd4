-- Trigram indexes back the regular-expression search over contact fields.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

//! Flood-It as a native searchkit domain; the twin of the Python plugin `searchkit_flood`.

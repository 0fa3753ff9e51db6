"""The plugin system: hook specifications (:mod:`.spec`) and the typed registry (:mod:`.manager`)."""

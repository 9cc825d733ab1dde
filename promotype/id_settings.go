package promotype

// Id prefixes of the project settings.
const (
	PrefixMetadataSchema    = "ms_"
	PrefixCustomEventSchema = "ms_" // the hosted service uses ms_ for both kinds of schema
	PrefixBranding          = "brd_"
	PrefixCustomEvent       = "evcus_"
)

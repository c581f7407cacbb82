package index

// TypeWrite is the customType of the custom entry pruner writes first
// whenever it appends to a session (`pruner now --write`): it records what
// the file was before, so `pruner restore` can give it back byte for byte.
// pi and pi-condense ignore custom entries they do not know.
const TypeWrite = "pruner-write"

// WriteMarker is the data of a pruner-write entry.
type WriteMarker struct {
	// V is the marker format (1).
	V int `json:"v"`
	// BaseBytes is the size of the file before this write, and BaseSHA256
	// the SHA-256 of those bytes (hex).
	BaseBytes  int64  `json:"baseBytes"`
	BaseSHA256 string `json:"baseSha256"`
	// Newline is set when the file's last line had no final newline and
	// pruner added one before its entries.
	Newline bool `json:"newline,omitempty"`
	// IDs are the ids of the entries this write appended after the marker,
	// in order.
	IDs []string `json:"ids"`
	// Blobs are the spill files this write created.
	Blobs []string `json:"blobs,omitempty"`
}

// MarkerEntry is the pruner-write entry with the marker data (JSON).
func MarkerEntry(data []byte) *NewEntry { return customEntry(TypeWrite, data) }

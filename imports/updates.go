package imports

import (
	"context"
	"encoding/json"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
)

// MetadataUpdate is the body of the metadata updates
// (POST /v1/products/metadata/async, /v1/customers/metadata/async: the
// keys in SourceIDs; /v1/vouchers/metadata/async: in Codes): every
// resource named gets the keys of Metadata (merged into its metadata).
type MetadataUpdate struct {
	SourceIDs []string           `json:"source_ids"`
	Codes     []string           `json:"codes"`
	Metadata  promotype.Metadata `json:"metadata"`
}

// keysInput is the input of a metadata update: its keys, none empty. As
// the hosted service, it takes what the SDKs send for an empty body: no
// keys (an action with no rows) and no metadata (nothing set).
func keysInput(keys []string, name string) (Input, error) {
	for i, k := range keys {
		if k == "" {
			return Input{}, promotype.InvalidPayload("Property .%s[%d] must NOT have fewer than 1 characters", name, i)
		}
	}
	return updateItems(keys)
}

// merged returns m with the keys of add set.
func merged(m, add promotype.Metadata) promotype.Metadata {
	out := promotype.Metadata{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range add {
		out[k] = v
	}
	return out
}

// eachRow is an outside step that applies every row on its own through
// fn (a service call with its own transaction): its failure is the row's.
// A chunk's rows applied before a crash are applied again when the action
// resumes; the upserts and updates that use it are idempotent.
func eachRow[A rowArgs, R any](fn func(ctx context.Context, job *async.Job[A], r R) error) func(ctx context.Context, job *async.Job[A], rows []R, o *outcome) error {
	return func(ctx context.Context, job *async.Job[A], rows []R, o *outcome) error {
		for i, r := range rows {
			if err := fn(ctx, job, r); err != nil {
				if err := o.fail(i, err); err != nil {
					return err
				}
				continue
			}
			o.done++
		}
		return nil
	}
}

// rawKey is the value of key of a raw JSON item, when it is a string.
func rawKey(raw json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(m[key], &s)
	return s
}

// decodeItem decodes a raw JSON item (a 400 when it does not fit).
func decodeItem(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return promotype.InvalidPayload("The item cannot be read: %v", err)
	}
	return nil
}

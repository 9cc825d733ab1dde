package promotype

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync/atomic"
)

// Id prefixes of the hosted service, one per resource type.
const (
	PrefixProject       = "proj_"
	PrefixProduct       = "prod_"
	PrefixSKU           = "sku_"
	PrefixReward        = "rew_"
	PrefixLocation      = "loc_"
	PrefixCampaign      = "camp_"
	PrefixVoucher       = "v_"
	PrefixOrder         = "ord_"
	PrefixCustomer      = "cust_"
	PrefixAsyncAction   = "aa_"
	PrefixCategory      = "cat_"
	PrefixWebhook       = "wh_"
	PrefixAppKey        = "app_"
	PrefixManagementKey = "mgmt_"

	PrefixProductCollection = "pc_"
	PrefixRewardAssignment  = "rewa_"
)

// IDGenerator makes resource ids: prefix + a random part.
type IDGenerator interface {
	NewID(prefix string) string
}

const base62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// RandomIDs makes ids with 24 base62 characters from crypto/rand (about 143
// bits): enough that ids cannot be guessed.
type RandomIDs struct{}

// NewID returns prefix followed by 24 random base62 characters.
func (RandomIDs) NewID(prefix string) string {
	return randomString(prefix, 24, base62)
}

// RandomString returns n characters drawn uniformly from charset with
// crypto/rand (rejection sampling, so no character is favoured).
func RandomString(n int, charset string) string {
	return randomString("", n, charset)
}

// randomString is prefix followed by RandomString(n, charset), built in
// one allocation.
func randomString(prefix string, n int, charset string) string {
	var out strings.Builder
	out.Grow(len(prefix) + n)
	out.WriteString(prefix)
	limit := 256 - 256%len(charset)
	var buf [64]byte
	for i := 0; i < n; {
		_, _ = rand.Read(buf[:])
		for _, b := range buf {
			if int(b) >= limit {
				continue
			}
			out.WriteByte(charset[int(b)%len(charset)])
			i++
			if i == n {
				break
			}
		}
	}
	return out.String()
}

// SequentialIDs makes predictable ids (prefix + zero-padded counter) for tests
// and golden files. Safe for concurrent use.
type SequentialIDs struct{ n atomic.Int64 }

// NewID returns prefix followed by the next counter value.
func (s *SequentialIDs) NewID(prefix string) string {
	return fmt.Sprintf("%s%020d", prefix, s.n.Add(1))
}

// PrefixUser starts the id of a project user (the management API's users).
const PrefixUser = "user_"

package webhook

import (
	"context"
	"encoding/json"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The documented signature vectors of the hosted service (key "secretKey").
func TestSignVectors(t *testing.T) {
	t.Parallel()
	tests := []struct{ body, want string }{
		{`{"a":1}`, "a17d2ac229d1ebbb5f10e839c7985c4818e5986eab297f7e5979196d4d7d3ed2"},
		{`{"a\"b":1}`, "f7cf97814a03146abedb9793f56e1dec34f618f82d10395310d053f749483ffb"},
		{"  message  ", "53ff92957e1427ce23ad5bda9d0c5f2f4ff384d0806b83eeacb510c842d3a358"},
	}
	for _, tc := range tests {
		if got := Sign("secretKey", []byte(tc.body)); got != tc.want {
			t.Errorf("Sign(%q) = %s, want %s", tc.body, got, tc.want)
		}
		if !Verify("secretKey", []byte(tc.body), tc.want) {
			t.Errorf("Verify(%q) refused its own signature", tc.body)
		}
		if Verify("otherKey", []byte(tc.body), tc.want) || Verify("secretKey", []byte(tc.body+" "), tc.want) {
			t.Errorf("Verify(%q) accepted a wrong key or body", tc.body)
		}
	}
	if Verify("secretKey", []byte("x"), "not-hex") {
		t.Error("Verify accepted a malformed signature")
	}
}

func TestEventCatalogue(t *testing.T) {
	t.Parallel()
	// The hosted API's groups: 5 + 9 + 5 + 13 + 3 + 5 + 5 + 8 + 7.
	if len(Events) != 60 {
		t.Errorf("catalogue has %d names, want the spec's 60", len(Events))
	}
	for _, ok := range []string{"campaign.vouchers.aded", "voucher.gift.balance_aded", "business_validation_rule.assignment.created"} {
		if !IsEvent(ok) {
			t.Errorf("%s refused", ok)
		}
	}
	for _, bad := range []string{"campaign.vouchers.added", "customer.updated", "", "Campaign.created"} {
		if IsEvent(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestTargetPolicy(t *testing.T) {
	t.Parallel()
	strict := TargetPolicy{}
	loop := TargetPolicy{AllowLoopback: true}
	tests := []struct {
		url           string
		strict, loops bool // accepted by each policy
	}{
		{"https://hooks.example.com/promo", true, true},
		{"http://hooks.example.com:8080/x?y=1", true, true},
		{"ftp://hooks.example.com/", false, false},
		{"hooks.example.com/x", false, false},
		{"https://user:pw@hooks.example.com/", false, false},
		{"http://127.0.0.1:9000/", false, true},
		{"http://localhost:9000/", false, true},
		{"http://[::1]/", false, true},
		{"http://10.1.2.3/", false, false},
		{"http://192.168.0.10/", false, false},
		{"http://169.254.169.254/latest/meta-data", false, false},
		{"http://0.0.0.0/", false, false},
		{"http://[::ffff:127.0.0.1]/", false, true},
	}
	for _, tc := range tests {
		if got := strict.CheckURL(tc.url) == nil; got != tc.strict {
			t.Errorf("strict CheckURL(%s) accepted = %v, want %v", tc.url, got, tc.strict)
		}
		if got := loop.CheckURL(tc.url) == nil; got != tc.loops {
			t.Errorf("loopback CheckURL(%s) accepted = %v, want %v", tc.url, got, tc.loops)
		}
	}
	if (TargetPolicy{AllowPrivate: true}).CheckAddr(netip.MustParseAddr("10.0.0.1")) != nil {
		t.Error("AllowPrivate refused a private address")
	}
}

func TestSchedule(t *testing.T) {
	t.Parallel()
	var waits []time.Duration
	var total time.Duration
	for attempt := 1; ; attempt++ {
		d, ok := DefaultSchedule.Next(attempt)
		if !ok {
			break
		}
		waits = append(waits, d)
		total += d
	}
	// The hosted service's schedule: +1, 2, 4, 8, 16, 32 min, 1h04, 2h08,
	// 4h16, 8h32, 17h04, and a final retry 24 h later.
	want := []time.Duration{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1440}
	for i := range want {
		want[i] *= time.Minute
	}
	if d := cmp.Diff(want, waits); d != "" {
		t.Errorf("waits (-want +got):\n%s", d)
	}
	if total < 24*time.Hour || total > 72*time.Hour {
		t.Errorf("the retries span %v, want about a day or more", total)
	}
	short := Schedule{Tries: 4, Base: 10 * time.Millisecond, Max: 25 * time.Millisecond}
	for attempt, want := range map[int]time.Duration{1: 10 * time.Millisecond, 2: 20 * time.Millisecond, 3: 25 * time.Millisecond} {
		if d, ok := short.Next(attempt); !ok || d != want {
			t.Errorf("Next(%d) = %v, %v; want %v", attempt, d, ok, want)
		}
	}
	if _, ok := short.Next(4); ok {
		t.Error("a fifth try was allowed")
	}
}

// The expected bytes are what Node's JSON.stringify gives for the same value
// (checked with node 20 when this test was written).
func TestMarshalMatchesJSONStringify(t *testing.T) {
	t.Parallel()
	v := struct {
		A   string `json:"a"`
		N   float64
		Arr []any `json:"arr"`
	}{A: "<b>&\u2028\u2029\b\f\n\r\t\u0001\u007f é 😀 \\u2028", N: 1.5, Arr: []any{1, "x", nil, true}}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"a\":\"<b>&\u2028\u2029\\b\\f\\n\\r\\t\\u0001\u007f é 😀 \\\\u2028\",\"N\":1.5,\"arr\":[1,\"x\",null,true]}"
	if string(got) != want {
		t.Errorf("Marshal =\n%q\nwant\n%q", got, want)
	}
	var back map[string]any
	if err := json.Unmarshal(got, &back); err != nil || back["a"] != v.A {
		t.Errorf("the body does not parse back to the same value: %v", err)
	}
}

func FuzzMarshalRoundTrip(f *testing.F) {
	for _, s := range []string{"", "\u2028", `\u2028`, "\\\u2029", `\\u2029x`, "a\"b", "<>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Marshal(map[string]string{"k": s})
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Marshal(%q) = %q does not parse: %v", s, b, err)
		}
		want, _ := json.Marshal(s) // encoding/json's view of s (invalid UTF-8 becomes U+FFFD)
		var norm string
		_ = json.Unmarshal(want, &norm)
		if back["k"] != norm {
			t.Fatalf("round trip of %q gave %q", s, back["k"])
		}
	})
}

// Every range of the IANA special-purpose registries that is not globally
// reachable is refused when a target is saved (in any numeric spelling)
// and again when the default client dials it; globally reachable entries
// and ordinary public addresses pass.
func TestTargetPolicySpecialPurpose(t *testing.T) {
	t.Parallel()
	refused := []struct{ name, host string }{
		{"this network 0/8", "0.1.2.3"},
		{"private 10/8", "10.0.0.1"},
		{"shared 100.64/10", "100.64.0.1"},
		{"shared 100.64/10 top", "100.127.255.254"},
		{"loopback 127/8", "127.0.0.2"},
		{"link-local 169.254/16", "169.254.169.254"},
		{"private 172.16/12", "172.31.0.1"},
		{"IETF 192.0.0/24", "192.0.0.8"},
		{"IETF 192.0.0/24 NAT64 discovery", "192.0.0.170"},
		{"TEST-NET-1", "192.0.2.1"},
		{"6to4 relay anycast", "192.88.99.1"},
		{"private 192.168/16", "192.168.1.1"},
		{"benchmarking 198.18/15", "198.18.0.1"},
		{"benchmarking 198.18/15 top", "198.19.255.255"},
		{"TEST-NET-2", "198.51.100.7"},
		{"TEST-NET-3", "203.0.113.9"},
		{"multicast", "224.0.0.1"},
		{"reserved 240/4", "240.0.0.1"},
		{"limited broadcast", "255.255.255.255"},
		{"unspecified ::", "[::]"},
		{"loopback ::1", "[::1]"},
		{"IPv4-mapped private", "[::ffff:10.0.0.1]"},
		{"IPv4-compatible loopback", "[::127.0.0.1]"},
		{"NAT64 of loopback", "[64:ff9b::7f00:1]"},
		{"local-use translation 64:ff9b:1::/48", "[64:ff9b:1::1]"},
		{"discard-only 100::/64", "[100::1]"},
		{"dummy 100:0:0:1::/64", "[100:0:0:1::1]"},
		{"IETF 2001::/23", "[2001:1::4]"},
		{"TEREDO 2001::/32", "[2001::1]"},
		{"benchmarking 2001:2::/48", "[2001:2::1]"},
		{"documentation 2001:db8::/32", "[2001:db8::1]"},
		{"6to4 2002::/16", "[2002:7f00:1::1]"},
		{"documentation 3fff::/20", "[3fff::1]"},
		{"SRv6 5f00::/16", "[5f00::1]"},
		{"unique-local fc00::/7", "[fd00::1]"},
		{"link-local fe80::/10", "[fe80::1]"},
		{"link-local zoned", "[fe80::1%25eth0]"},
		{"site-local fec0::/10", "[fec0::1]"},
		{"multicast ff00::/8", "[ff02::1]"},
	}
	strict := TargetPolicy{}
	dial := strict.DialContext(&net.Dialer{Timeout: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range refused {
		if err := strict.CheckURL("https://" + tc.host + "/hook"); err == nil {
			t.Errorf("%s: CheckURL accepted %s", tc.name, tc.host)
		}
		addr := strings.Trim(strings.Replace(tc.host, "%25", "%", 1), "[]")
		conn, err := dial(ctx, "tcp", net.JoinHostPort(addr, "443"))
		if err == nil {
			_ = conn.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "must ") {
			t.Errorf("%s: dial %s not refused by the policy: %v", tc.name, addr, err)
		}
	}

	// Numeric spellings and localhost names are normalised before the check.
	for _, host := range []string{"127.1", "2130706433", "0x7f000001", "0x7F.1", "0177.0.0.1", "127.0.1",
		"LOCALHOST", "localhost.", "Api.LocalHost", "10.1", "167772161", "0xa9fea9fe", "0.0", "0"} {
		if err := strict.CheckURL("http://" + host + ":8080/"); err == nil {
			t.Errorf("CheckURL accepted numeric or local host %q", host)
		}
	}
	// Numeric hosts that are no address at all are refused too.
	for _, host := range []string{"1.2.3.4.5", "256.1.1.1", "4294967296", "1.2.3.256", "0x", "example.123"} {
		if err := strict.CheckURL("http://" + host + "/"); err == nil {
			t.Errorf("CheckURL accepted invalid numeric host %q", host)
		}
	}
	// Globally reachable addresses, including registry exceptions, pass.
	for _, host := range []string{"8.8.8.8", "134744072", "1.1.1.1", "192.0.0.9", "192.31.196.1", "100.128.0.1", "198.20.0.1",
		"[2606:4700:4700::1111]", "[64:ff9b::808:808]", "[2001:4:112::1]", "[2001:20::1]", "123.example.com", "hooks.example.com."} {
		if err := strict.CheckURL("https://" + host + "/"); err != nil {
			t.Errorf("CheckURL refused public host %q: %v", host, err)
		}
	}
	// Loopback stays allowed when configured, in any spelling.
	loop := TargetPolicy{AllowLoopback: true}
	for _, host := range []string{"127.1", "0x7f000001", "LOCALHOST", "localhost.", "[::1]"} {
		if err := loop.CheckURL("http://" + host + "/"); err != nil {
			t.Errorf("AllowLoopback refused %q: %v", host, err)
		}
	}
	if err := loop.CheckURL("http://100.64.0.1/"); err == nil {
		t.Error("AllowLoopback accepted shared address space")
	}
}

package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// TargetPolicy decides which receiving addresses deliveries may reach.
// By default only globally reachable unicast addresses: every entry of the
// IANA IPv4 and IPv6 special-purpose address registries that is not
// globally reachable (loopback, private, shared 100.64/10, link-local,
// documentation, benchmarking, reserved, broadcast, discard-only, …) is
// refused, at configuration time (literal addresses in any numeric form,
// and localhost names) and again at connection time (names, so DNS cannot
// point a public name at an internal host).
type TargetPolicy struct {
	AllowLoopback bool // the standalone server allows it when asked by flag
	AllowPrivate  bool // private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) and link-local
}

// CheckURL checks a target_url: an absolute http(s) URL with a host, whose
// literal IP address (if it is one, in any form inet_aton would read) the
// policy allows.
func (p TargetPolicy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return fmt.Errorf("must be an absolute http or https URL without credentials")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return fmt.Errorf("must be an absolute http or https URL with a host")
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		return p.CheckAddr(addr)
	}
	if addr, ok, err := parseNumericIPv4(host); ok {
		if err != nil {
			return err
		}
		return p.CheckAddr(addr)
	}
	if (host == "localhost" || strings.HasSuffix(host, ".localhost")) && !p.AllowLoopback {
		return errLoopback
	}
	return nil
}

var (
	errLoopback = errors.New("must not point at a loopback address")
	errPrivate  = errors.New("must not point at a private address")
	errSpecial  = errors.New("must point at a globally reachable unicast address")
)

// CheckAddr checks one resolved address.
func (p TargetPolicy) CheckAddr(a netip.Addr) error {
	a = a.Unmap().WithZone("") // a zoned address matches no prefix
	switch {
	case a.IsLoopback():
		if !p.AllowLoopback {
			return errLoopback
		}
		return nil
	case a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		if !p.AllowPrivate {
			return errPrivate
		}
		return nil
	case a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast():
		return errSpecial
	}
	if a.Is6() {
		// NAT64 (64:ff9b::/96) reaches the IPv4 address it embeds.
		if nat64.Contains(a) {
			b := a.As16()
			return p.CheckAddr(netip.AddrFrom4([4]byte(b[12:])))
		}
		if !globalUnicast6.Contains(a) {
			return errSpecial // ::/8, 100::/8, 5f00::/16, fec0::/10, … are no public unicast
		}
	}
	for _, r := range notGlobal {
		if r.Contains(a) && !globalException(a) {
			return errSpecial
		}
	}
	return nil
}

var (
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
	// notGlobal lists the entries of the IANA special-purpose address
	// registries (iana-ipv4-special-registry, iana-ipv6-special-registry)
	// that are not globally reachable and that the checks above do not
	// already cover; IPv6 outside 2000::/3 is refused as a whole.
	notGlobal = prefixes(
		"0.0.0.0/8",       // "this network"
		"100.64.0.0/10",   // shared address space (carrier-grade NAT)
		"192.0.0.0/24",    // IETF protocol assignments (but see globalException)
		"192.0.2.0/24",    // TEST-NET-1
		"192.88.99.0/24",  // deprecated 6to4 relay anycast
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // TEST-NET-2
		"203.0.113.0/24",  // TEST-NET-3
		"240.0.0.0/4",     // reserved, and 255.255.255.255 limited broadcast
		"2001::/23",       // IETF protocol assignments, TEREDO, benchmarking (but see globalException)
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4: reaches the IPv4 address it embeds
		"3fff::/20",       // documentation
	)
	// globalExceptions are the globally reachable entries inside the
	// ranges above.
	globalExceptions = prefixes(
		"192.0.0.9/32", "192.0.0.10/32", // PCP and TURN anycast
		"2001:1::1/128", "2001:1::2/128", "2001:1::3/128", // PCP, TURN and DNS-SD SRP anycast
		"2001:3::/32",     // AMT
		"2001:4:112::/48", // AS112-v6
		"2001:20::/28",    // ORCHIDv2
		"2001:30::/28",    // DRIP detector entity tags
	)
)

func globalException(a netip.Addr) bool {
	for _, r := range globalExceptions {
		if r.Contains(a) {
			return true
		}
	}
	return false
}

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// parseNumericIPv4 reads a host the way inet_aton (and so many resolvers
// and browsers) would: one to four parts, each decimal, octal (leading 0)
// or hexadecimal (0x), the last filling the remaining bytes ("127.1",
// "2130706433", "0x7f000001", "0177.0.0.1"). ok reports whether host looks
// numeric at all (its last label is a number); err is set when it
// does but is no valid address, since such a host is no DNS name either
// (the WHATWG URL standard refuses it the same way).
func parseNumericIPv4(host string) (addr netip.Addr, ok bool, err error) {
	labels := strings.Split(host, ".")
	if !endsInNumber(labels[len(labels)-1]) {
		return netip.Addr{}, false, nil
	}
	invalid := fmt.Errorf("must have a valid host name or IP address")
	if len(labels) > 4 {
		return netip.Addr{}, true, invalid
	}
	var parts []uint64
	for _, l := range labels {
		base, digits := 10, l
		switch {
		case len(l) > 1 && (strings.HasPrefix(l, "0x") || strings.HasPrefix(l, "0X")):
			base, digits = 16, l[2:]
			if digits == "" {
				digits = "0"
			}
		case len(l) > 1 && l[0] == '0':
			base, digits = 8, l[1:]
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return netip.Addr{}, true, invalid
		}
		parts = append(parts, n)
	}
	var v uint64
	for i, n := range parts[:len(parts)-1] {
		if n > 0xff {
			return netip.Addr{}, true, invalid
		}
		v |= n << (8 * (3 - i))
	}
	lastN := parts[len(parts)-1]
	if lastN >= 1<<(8*(5-len(parts))) {
		return netip.Addr{}, true, invalid
	}
	v |= lastN
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// DialContext is a net.Dialer.DialContext that refuses addresses the policy
// does not allow, checked after name resolution.
func (p TargetPolicy) DialContext(d *net.Dialer) func(ctx context.Context, network, address string) (net.Conn, error) {
	guard := *d
	guard.Control = func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		return p.CheckAddr(ap.Addr())
	}
	return guard.DialContext
}

// endsInNumber reports whether a last label is all decimal digits or a
// 0x-prefixed hexadecimal number, which makes its host an IPv4 address.
func endsInNumber(l string) bool {
	if l == "" {
		return false
	}
	digits := "0123456789"
	if len(l) >= 2 && l[0] == '0' && (l[1] == 'x' || l[1] == 'X') {
		l, digits = l[2:], "0123456789abcdefABCDEF"
	}
	for _, c := range l {
		if !strings.ContainsRune(digits, c) {
			return false
		}
	}
	return true
}

package memory

import (
	"strings"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// dropProject removes every row of project from d, logging the inverse
// operations in u (DeleteProject). Each structure of data is listed here:
// a new one must be added, and storagetest's project deletion test checks
// the known ones.
func (d *data) dropProject(u *undo, project string) {
	d.projects.del(u, "", project)
	dropTable(u, &d.members, project)
	// Credentials: app keys (announced as deleted), client keys, tokens,
	// and the management keys' grants.
	for id, k := range d.appKeys.rows[""] {
		if k.ProjectID == project {
			d.appKeys.del(u, "", id)
			d.auth.feed.deliver(auth.Invalidation{AppID: id})
		}
	}
	for id, k := range d.clientKeys.rows[""] {
		if k.ProjectID == project {
			d.clientKeys.del(u, "", id)
		}
	}
	dropTable(u, &d.auth.tokens, project)
	dropWhere(u, d.auth.tokenOwner, func(_ [2]string, owner string) bool { return owner == project })
	for id, k := range d.mgmtKeys.rows[""] {
		if k.Grants(project) {
			c := cloneMgmt(k)
			c.ProjectIDs = slicesDelete(c.ProjectIDs, project)
			d.mgmtKeys.put(u, "", id, c)
		}
	}

	dropKeyed(u, &d.products, project)
	dropKeyed(u, &d.skus, project)
	dropTable(u, &d.rewards, project)
	dropTable(u, &d.rewardAsgs, project)
	dropKeyed(u, &d.collections, project)
	dropTable(u, &d.locations, project)
	dropKeyed(u, &d.customers, project)
	dropWhere(u, d.activities, func(k [2]string, _ []*customer.Activity) bool { return k[0] == project })
	dropKeyed(u, &d.orders, project)

	dropKeyed(u, &d.campaigns.campaigns, project)
	dropKeyed(u, &d.campaigns.categories, project)
	dropKeyed(u, &d.campaigns.templates, project)
	dropWhere(u, d.campaigns.vouchers, func(k string, _ *voucherProject) bool { return k == project })
	dropTable(u, &d.campaigns.actions, project)
	dropTable(u, &d.rules.rules, project)
	dropTable(u, &d.rules.assignments, project)
	dropTable(u, &d.tiers, project)
	dropTable(u, &d.stacks, project)
	dropTable(u, &d.loyalty.rules, project)
	dropTable(u, &d.segments.segments, project)
	dropWhere(u, d.segments.members, func(k [2]string, _ map[string]promotype.Time) bool { return k[0] == project })
	dropTable(u, &d.loyalty.claims, project)
	dropTable(u, &d.referrals.conversions, project)
	dropTable(u, &d.referrals.holders, project)
	dropIndex(u, d.referrals.holderKeys, project)
	dropTable(u, &d.loyalty.tiers, project)
	dropTable(u, &d.loyalty.pending, project)
	dropTable(u, &d.loyalty.buckets, project)
	dropTable(u, &d.loyalty.holds, project)
	dropTable(u, &d.loyalty.changes, project)
	dropWhere(u, d.loyalty.cardBuckets, func(k [2]string, _ []string) bool { return k[0] == project })

	dropTable(u, &d.stackingRules, project)
	dropTable(u, &d.redemptions, project)
	dropIndex(u, d.redemptionKeys, project)
	prefix := project + "\x00"
	delKey(u, d.counters, project)
	dropWhere(u, d.transactions.byProject, func(k string, _ []*redemption.Transaction) bool { return k == project })
	dropWhere(u, d.transactions.pos, func(k [2]string, _ int) bool { return k[0] == project })
	dropWhere(u, d.transactions.byVoucher, func(k [2]string, _ []int) bool { return k[0] == project })
	dropWhere(u, d.sessions.byVoucher, func(k string, _ map[string]*redemption.Reservation) bool { return strings.HasPrefix(k, prefix) })
	dropWhere(u, d.sessions.byKey, func(k string, _ map[string]bool) bool { return strings.HasPrefix(k, prefix) })

	dropTable(u, &d.pubData.pubs, project)
	dropIndex(u, d.pubData.sources, project)
	dropTable(u, &d.pubData.holders, project)
	dropIndex(u, d.pubData.held, project)
	dropWhere(u, d.pubData.wallets, func(k [2]string, _ []string) bool { return k[0] == project })

	dropTable(u, &d.exports.rows, project)
	dropTable(u, &d.exports.files, project)
	dropWhere(u, d.importPages, func(k string, _ []byte) bool { return strings.HasPrefix(k, prefix) })

	dropTable(u, &d.settings.webhooks, project)
	dropKeyed(u, &d.settings.metaSchemas, project)
	dropKeyed(u, &d.settings.eventSchemas, project)
	dropTable(u, &d.settings.brandings, project)
	dropTable(u, &d.settings.events, project)
	d.outbox.dropProject(u, project)
}

// dropProject removes the project's events and sendouts from the outbox.
func (o *outboxData) dropProject(u *undo, project string) {
	events, fanned := o.events, o.fanned
	kept := make([]*promotype.Event, 0, len(events))
	for i, e := range events {
		if e.ProjectID == project {
			if i < fanned {
				o.fanned--
			}
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) != len(events) {
		o.events = kept
		u.push(func() { o.events, o.fanned = events, fanned })
	}
	for r := range o.pending {
		if r.s.ProjectID == project {
			delete(o.pending, r)
			u.push(func() { o.pending[r] = struct{}{} })
		}
	}
	dropWhere(u, o.sendouts, func(k string, _ map[string]*sendoutRow) bool { return k == project })
	dropWhere(u, o.planned, func(k [3]string, _ bool) bool { return k[0] == project })
}

// dropTable removes every row of project from t.
func dropTable[V any](u *undo, t *table[V], project string) {
	dropWhere(u, t.rows, func(k string, _ map[string]*V) bool { return k == project })
}

// dropKeyed removes every row and key of project from k.
func dropKeyed[V any](u *undo, k *keyed[V], project string) {
	dropTable(u, &k.table, project)
	dropIndex(u, k.keys, project)
}

// dropIndex removes every key of project from ix.
func dropIndex(u *undo, ix index, project string) {
	dropWhere(u, ix, func(k [2]string, _ string) bool { return k[0] == project })
}

// dropWhere deletes the entries of m that match says so, logging how to put
// them back.
func dropWhere[K comparable, V any](u *undo, m map[K]V, match func(K, V) bool) {
	for k, v := range m {
		if match(k, v) {
			delete(m, k)
			u.push(func() { m[k] = v })
		}
	}
}

// slicesDelete returns s without the elements equal to v.
func slicesDelete(s []string, v string) []string {
	out := s[:0]
	for _, x := range s {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

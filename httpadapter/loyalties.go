package httpadapter

import (
	"net/http"
	"slices"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/voucher"
)

// loyaltyRoutes are the loyalty endpoints (scope loyalties): programs,
// members, their balance and ledger, and earning rules. A program is
// addressed by id or name, a member by card code or voucher id; a member
// path without a program takes a card of any program.
func (s *server) loyaltyRoutes() []route {
	return slices.Concat(s.programRoutes(), s.memberRoutes(), s.earningRuleRoutes(), s.loyaltyRewardRoutes(), s.tierRoutes(), s.pendingRoutes())
}

func (s *server) programRoutes() []route {
	l := s.engine.Loyalties()
	return []route{
		{http.MethodPost, "/v1/loyalties", appKey, withBody(func(c *call, in campaign.Params) (*campaign.Campaign, error) {
			return l.CreateProgram(c.actx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/loyalties", appKey, s.hostedList("campaigns", withoutBody(func(c *call) (*promotype.List[*campaign.Campaign], error) {
			p, err := campaignListParams(c)
			if err != nil {
				return nil, err
			}
			return l.ListPrograms(c.ctx(), c.projectID, p)
		}))},
		{http.MethodGet, "/v1/loyalties/{programId}", appKey, withoutBody(func(c *call) (*campaign.Campaign, error) {
			return l.Program(c.ctx(), c.projectID, c.path("programId"))
		})},
		{http.MethodPut, "/v1/loyalties/{programId}", appKey, withBody(func(c *call, in campaign.UpdateParams) (*campaign.Campaign, error) {
			return l.UpdateProgram(c.actx(), c.projectID, c.path("programId"), in)
		})},
		{http.MethodDelete, "/v1/loyalties/{programId}", appKey, withoutBody(func(c *call) (*async.Ref, error) {
			force, err := c.force()
			if err != nil {
				return nil, err
			}
			return l.DeleteProgram(c.actx(), c.projectID, c.path("programId"), force)
		})},
		{http.MethodPost, "/v1/loyalties/{programId}/transactions/export", appKey, withBody(func(c *call, in export.TransactionsParams) (*export.Export, error) {
			p, err := l.Program(c.ctx(), c.projectID, c.path("programId"))
			if err != nil {
				return nil, err
			}
			return s.engine.Exports().ExportCampaignTransactions(c.ctx(), c.projectID, p.ID, in)
		})},
		{http.MethodPost, "/v1/loyalties/{programId}/points-expiration/export", appKey, withBody(func(c *call, in export.TransactionsParams) (*export.Export, error) {
			p, err := l.Program(c.ctx(), c.projectID, c.path("programId"))
			if err != nil {
				return nil, err
			}
			return s.engine.Exports().ExportCampaignPointsExpiration(c.ctx(), c.projectID, p.ID, in)
		})},
		{http.MethodGet, "/v1/loyalties/{programId}/transactions", appKey, withoutBody(func(c *call) (*redemption.TransactionList, error) {
			in, err := transactionListParams(c)
			if err != nil {
				return nil, err
			}
			return l.ProgramTransactions(c.ctx(), c.projectID, c.path("programId"), in)
		})},
	}
}

// memberRoutes are the member endpoints, each with and without the
// program in its path.
func (s *server) memberRoutes() []route {
	l := s.engine.Loyalties()
	routes := []route{
		{http.MethodPost, "/v1/loyalties/{programId}/members", appKey, withBody(func(c *call, in loyalty.MemberParams) (*voucher.Voucher, error) {
			return l.AddMember(c.ctx(), c.projectID, c.path("programId"), in)
		})},
		{http.MethodPost, "/v1/loyalties/{programId}/members/{memberId}/transfers", appKey, func(c *call) (int, any, error) {
			var in []loyalty.TransferParams
			if err := decodeArrayBody(c, &in); err != nil {
				return 0, nil, err
			}
			out, err := l.Transfer(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"), in)
			return http.StatusOK, out, err
		}},
		{http.MethodGet, "/v1/loyalties/{programId}/members", appKey, s.hostedList("vouchers", withoutBody(func(c *call) (*promotype.List[*voucher.Voucher], error) {
			p, err := voucherListParams(c)
			if err != nil {
				return nil, err
			}
			return l.ListMembers(c.ctx(), c.projectID, c.path("programId"), p)
		}))},
	}
	for _, prefix := range []string{"/v1/loyalties/{programId}/members/{memberId}", "/v1/loyalties/members/{memberId}"} {
		routes = append(routes,
			route{http.MethodGet, prefix, appKey, withoutBody(func(c *call) (*voucher.Voucher, error) {
				return l.Member(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"))
			})},
			route{http.MethodPost, prefix + "/balance", appKey, withBody(func(c *call, in loyalty.BalanceParams) (*redemption.Balance, error) {
				return l.AddBalance(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"), in)
			})},
			route{http.MethodPost, prefix + "/transactions/export", appKey, withBody(func(c *call, in export.TransactionsParams) (*export.Export, error) {
				card, err := l.Member(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"))
				if err != nil {
					return nil, err
				}
				return s.engine.Exports().ExportVoucherTransactions(c.ctx(), c.projectID, card.ID, in)
			})},
			route{http.MethodGet, prefix + "/activity", appKey, memberActivity(l)},
			route{http.MethodGet, prefix + "/activities", appKey, memberActivity(l)}, // the JS SDK v2's older name
			route{http.MethodPost, prefix + "/redemption", appKey, withBody(func(c *call, in loyalty.RedeemRewardParams) (*redemption.Redemption, error) {
				return l.RedeemReward(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"), in, c.redeemOptions())
			})},
			route{http.MethodGet, prefix + "/transactions", appKey, withoutBody(func(c *call) (*redemption.TransactionList, error) {
				in, err := transactionListParams(c)
				if err != nil {
					return nil, err
				}
				return l.Transactions(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"), in)
			})},
		)
	}
	return routes
}

// earningRuleRoutes are the earning rule endpoints of a program.
func (s *server) earningRuleRoutes() []route {
	l := s.engine.Loyalties()
	const rules, rule = "/v1/loyalties/{programId}/earning-rules", "/v1/loyalties/{programId}/earning-rules/{earningRuleId}"
	return []route{
		{http.MethodPost, rules, appKey, func(c *call) (int, any, error) {
			var in []loyalty.EarningRuleParams
			if err := decodeArrayBody(c, &in); err != nil {
				return 0, nil, err
			}
			out, err := l.CreateEarningRules(c.ctx(), c.projectID, c.path("programId"), in)
			return http.StatusOK, out, err
		}},
		{http.MethodGet, rules, appKey, withoutBody(func(c *call) (*promotype.List[*loyalty.EarningRule], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return l.ListEarningRules(c.ctx(), c.projectID, c.path("programId"), p)
		})},
		{http.MethodGet, rule, appKey, withoutBody(func(c *call) (*loyalty.EarningRule, error) {
			return l.EarningRule(c.ctx(), c.projectID, c.path("programId"), c.path("earningRuleId"))
		})},
		{http.MethodPut, rule, appKey, withBody(func(c *call, in loyalty.EarningRuleUpdate) (*loyalty.EarningRule, error) {
			return l.UpdateEarningRule(c.ctx(), c.projectID, c.path("programId"), c.path("earningRuleId"), in)
		})},
		{http.MethodDelete, rule, appKey, noContent(func(c *call) error {
			return l.DeleteEarningRule(c.ctx(), c.projectID, c.path("programId"), c.path("earningRuleId"))
		})},
		{http.MethodPost, rule + "/enable", appKey, withoutBody(func(c *call) (*loyalty.EarningRule, error) {
			return l.EnableEarningRule(c.ctx(), c.projectID, c.path("programId"), c.path("earningRuleId"))
		})},
		{http.MethodPost, rule + "/disable", appKey, withoutBody(func(c *call) (*loyalty.EarningRule, error) {
			return l.DisableEarningRule(c.ctx(), c.projectID, c.path("programId"), c.path("earningRuleId"))
		})},
	}
}

// loyaltyRewardRoutes are the rewards a program offers for points and the
// rewards a member can buy.
func (s *server) loyaltyRewardRoutes() []route {
	l := s.engine.Loyalties()
	assignments := withoutBody(func(c *call) (*promotype.List[*reward.Assignment], error) {
		p, err := c.listParams()
		if err != nil {
			return nil, err
		}
		return l.ProgramRewards(c.ctx(), c.projectID, c.path("programId"), p)
	})
	assignment := withoutBody(func(c *call) (*reward.Assignment, error) {
		return l.RewardAssignment(c.ctx(), c.projectID, c.path("programId"), c.path("rewardAssignmentId"))
	})
	return []route{
		{http.MethodPost, "/v1/loyalties/{programId}/rewards", appKey, func(c *call) (int, any, error) {
			var in []loyalty.RewardAssignmentParams
			if err := decodeArrayBody(c, &in); err != nil {
				return 0, nil, err
			}
			out, err := l.AssignRewards(c.ctx(), c.projectID, c.path("programId"), in)
			return http.StatusOK, out, err
		}},
		{http.MethodGet, "/v1/loyalties/{programId}/rewards", appKey, assignments},
		{http.MethodGet, "/v1/loyalties/{programId}/rewards/{rewardAssignmentId}", appKey, assignment},
		{http.MethodPut, "/v1/loyalties/{programId}/rewards/{rewardAssignmentId}", appKey, withBody(func(c *call, in reward.AssignmentParams) (*reward.Assignment, error) {
			return l.UpdateRewardAssignment(c.ctx(), c.projectID, c.path("programId"), c.path("rewardAssignmentId"), in)
		})},
		{http.MethodDelete, "/v1/loyalties/{programId}/rewards/{rewardAssignmentId}", appKey, noContent(func(c *call) error {
			return l.DeleteRewardAssignment(c.ctx(), c.projectID, c.path("programId"), c.path("rewardAssignmentId"))
		})},
		{http.MethodGet, "/v1/loyalties/{programId}/reward-assignments", appKey, assignments},
		{http.MethodGet, "/v1/loyalties/{programId}/reward-assignments/{rewardAssignmentId}", appKey, assignment},
		{http.MethodGet, "/v1/loyalties/{programId}/reward-assignments/{rewardAssignmentId}/reward", appKey, withoutBody(func(c *call) (*reward.Reward, error) {
			return l.AssignedReward(c.ctx(), c.projectID, c.path("programId"), c.path("rewardAssignmentId"))
		})},
		{http.MethodGet, "/v1/loyalties/members/{memberId}/rewards", appKey, withoutBody(func(c *call) (*promotype.List[*loyalty.MemberReward], error) {
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			affordable, err := boolParam(q, "affordable_only")
			if err != nil {
				return nil, err
			}
			return l.MemberRewards(c.ctx(), c.projectID, c.path("memberId"), affordable)
		})},
	}
}

// tierRoutes are the tiers of a program and the tiers a member holds.
func (s *server) tierRoutes() []route {
	l := s.engine.Loyalties()
	const tiers, tier = "/v1/loyalties/{programId}/tiers", "/v1/loyalties/{programId}/tiers/{loyaltyTierId}"
	return []route{
		{http.MethodPost, tiers, appKey, func(c *call) (int, any, error) {
			var in []loyalty.TierParams
			if err := decodeArrayBody(c, &in); err != nil {
				return 0, nil, err
			}
			out, err := l.CreateTiers(c.ctx(), c.projectID, c.path("programId"), in)
			return http.StatusOK, out, err
		}},
		{http.MethodGet, tiers, appKey, withoutBody(func(c *call) (*promotype.List[*loyalty.Tier], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return l.Tiers(c.ctx(), c.projectID, c.path("programId"), p)
		})},
		{http.MethodGet, tier, appKey, withoutBody(func(c *call) (*loyalty.Tier, error) {
			return l.Tier(c.ctx(), c.projectID, c.path("programId"), c.path("loyaltyTierId"))
		})},
		{http.MethodGet, tier + "/earning-rules", appKey, withoutBody(func(c *call) (*promotype.List[*loyalty.EarningRule], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return l.TierEarningRules(c.ctx(), c.projectID, c.path("programId"), c.path("loyaltyTierId"), p)
		})},
		{http.MethodGet, tier + "/rewards", appKey, withoutBody(func(c *call) (*promotype.List[*loyalty.TierReward], error) {
			return l.TierRewards(c.ctx(), c.projectID, c.path("programId"), c.path("loyaltyTierId"))
		})},
		{http.MethodGet, "/v1/loyalties/members/{memberId}/tiers", appKey, withoutBody(func(c *call) (*promotype.List[*loyalty.Tier], error) {
			return l.MemberTiers(c.ctx(), c.projectID, c.path("memberId"))
		})},
	}
}

// pendingRoutes are the pending points of a program, of a member, and what
// can be done to an entry.
func (s *server) pendingRoutes() []route {
	l := s.engine.Loyalties()
	list := withoutBody(func(c *call) (*loyalty.PendingList, error) {
		limit, order, after, err := idPageQuery(c)
		if err != nil {
			return nil, err
		}
		return l.ListPending(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"),
			loyalty.PendingListParams{Limit: limit, Order: order, StartingAfterID: after})
	})
	const entry = "/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}"
	return []route{
		{http.MethodGet, "/v1/loyalties/{programId}/pending-points", appKey, list},
		{http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}/pending-points", appKey, list},
		{http.MethodGet, "/v1/loyalties/members/{memberId}/pending-points", appKey, list},
		{http.MethodGet, "/v1/loyalties/{programId}/members/{memberId}/points-expiration", appKey,
			withoutBody(func(c *call) (*promotype.List[*voucher.PointsBucket], error) {
				p, err := c.listParams()
				if err != nil {
					return nil, err
				}
				return l.Buckets(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"), loyalty.BucketListParams{Limit: p.Limit, Page: p.Page})
			})},
		{http.MethodPost, entry + "/activate", appKey, withoutBody(func(c *call) (*redemption.Balance, error) {
			return l.ActivatePending(c.ctx(), c.projectID, c.path("memberId"), c.path("pendingPointsId"))
		})},
		{http.MethodPost, entry + "/balance", appKey, withBody(func(c *call, in loyalty.PendingBalanceParams) (*redemption.Balance, error) {
			return l.AdjustPending(c.ctx(), c.projectID, c.path("memberId"), c.path("pendingPointsId"), in)
		})},
		{http.MethodPost, entry + "/cancel", appKey, noContent(func(c *call) error {
			return l.CancelPending(c.ctx(), c.projectID, c.path("memberId"), c.path("pendingPointsId"))
		})},
	}
}

// memberActivity is GET .../members/{memberId}/activity: the card holder's
// activity in the card's program.
func memberActivity(l *loyalty.Service) handler {
	return withoutBody(func(c *call) (*customer.ActivityList, error) {
		p, err := activityParams(c)
		if err != nil {
			return nil, err
		}
		return l.MemberActivity(c.ctx(), c.projectID, c.path("programId"), c.path("memberId"), p)
	})
}

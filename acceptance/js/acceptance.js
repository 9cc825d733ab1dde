// SDK acceptance: the official Voucherify JS SDK (@voucherify/sdk), used as
// an application would use it, against promo's server.
//
//   PROMO_API_URL=http://127.0.0.1:8080 PROMO_APP_ID=... PROMO_APP_TOKEN=... node acceptance.js
//
// Every step runs even when an earlier one failed (later steps may then fail
// too); the script prints one line per step and exits 1 when any failed,
// naming the step, the SDK call and the mismatch or the server's error.
// examples/server/sdk_acceptance_test.go runs it against a fresh server.
'use strict'

const assert = require('node:assert/strict')
const { VoucherifyServerSide, VoucherifyClientSide } = require('@voucherify/sdk')

const env = (name) => {
	const v = process.env[name]
	if (!v) {
		console.error(`acceptance.js: ${name} is not set`)
		process.exit(2)
	}
	return v
}

const client = VoucherifyServerSide({
	applicationId: env('PROMO_APP_ID'),
	secretKey: env('PROMO_APP_TOKEN'),
	apiUrl: env('PROMO_API_URL'),
	timeoutMs: 10000,
})

const failures = []

// step runs fn and records its failure; it never throws.
async function step(name, fn) {
	try {
		await fn()
		console.log(`ok   ${name}`)
	} catch (err) {
		failures.push(name)
		console.log(`FAIL ${name}\n${describe(err)}`)
	}
}

// describe renders an assertion failure or an SDK (VoucherifyError) error.
function describe(err) {
	if (err && err.code !== undefined && err.key !== undefined) {
		return `     server answered ${err.code} ${err.key}: ${err.message}` + (err.details ? ` (${err.details})` : '')
	}
	if (err && err.response && err.response.status) {
		return `     server answered ${err.response.status}: ${JSON.stringify(err.response.data)}`
	}
	return String((err && err.stack) || err)
		.split('\n')
		.map((l) => '     ' + l)
		.join('\n')
}

// listed asserts that a list answer holds its items under the hosted key
// and returns them.
function listed(res, key) {
	assert.equal(res.object, 'list', `object of the ${key} list`)
	assert.equal(res.data_ref, key, `data_ref of the ${key} list`)
	assert.ok(Array.isArray(res[key]), `the list has no array under "${key}": ${JSON.stringify(res).slice(0, 300)}`)
	return res[key]
}

// until polls fn (an SDK read) until ok(result) holds, at most 10 s: voucher
// generation is an async action the server runs in the background.
async function until(what, fn, ok) {
	const deadline = Date.now() + 10000
	for (;;) {
		const res = await fn()
		if (ok(res)) return res
		if (Date.now() > deadline) throw new Error(`${what}: not done after 10 s, last answer ${JSON.stringify(res).slice(0, 500)}`)
		await new Promise((r) => setTimeout(r, 50))
	}
}

const ids = (items) => items.map((x) => x.id).sort()
const run = Date.now().toString(36) // keeps names unique when run twice against one server

async function main() {
	const s = {} // what earlier steps made

	// Catalog.
	await step('products.create', async () => {
		s.shirt = await client.products.create({ source_id: `shirt-${run}`, name: 'T-shirt', price: 2500, attributes: ['size'], metadata: { brand: 'acme' } })
		assert.match(s.shirt.id, /^prod_/)
		assert.equal(s.shirt.object, 'product')
		assert.deepEqual(s.shirt.attributes, ['size'])
		s.mug = await client.products.create({ source_id: `mug-${run}`, name: 'Mug', price: 1000 })
	})
	await step('products.createSku', async () => {
		s.sku = await client.products.createSku(s.shirt.id, { source_id: `shirt-${run}-m`, sku: 'T-shirt M', price: 2600, attributes: { size: 'M' } })
		assert.match(s.sku.id, /^sku_/)
		assert.equal(s.sku.product_id, s.shirt.id)
	})
	await step('products.get', async () => {
		const p = await client.products.get(s.shirt.source_id)
		assert.equal(p.id, s.shirt.id)
		assert.deepEqual(ids(listed(p.skus, 'data')), [s.sku.id])
	})
	await step('products.update', async () => {
		const p = await client.products.update({ id: s.shirt.id, price: 2700 })
		assert.equal(p.price, 2700)
		assert.equal(p.name, 'T-shirt')
	})
	await step('products.listSkus reads .skus', async () => {
		assert.deepEqual(ids(listed(await client.products.listSkus(s.shirt.id), 'skus')), [s.sku.id])
	})
	await step('products.getSku', async () => {
		const k = await client.products.getSku(s.sku.source_id)
		assert.equal(k.id, s.sku.id)
	})
	await step('products.list reads .products', async () => {
		const res = await client.products.list({ limit: 100 })
		const got = listed(res, 'products').map((p) => p.id)
		for (const p of [s.shirt, s.mug]) assert.ok(got.includes(p.id), `products.list misses ${p.id}`)
		assert.equal(typeof res.total, 'number')
	})

	// A discount campaign with generated vouchers.
	await step('campaigns.create (DISCOUNT_COUPONS, 3 vouchers)', async () => {
		s.campaign = await client.campaigns.create({
			name: `Summer ${run}`,
			campaign_type: 'DISCOUNT_COUPONS',
			type: 'AUTO_UPDATE',
			vouchers_count: 3,
			voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, code_config: { length: 8, prefix: 'SUM-' } },
			metadata: { season: 'summer' },
		})
		assert.match(s.campaign.id, /^camp_/)
		assert.equal(s.campaign.campaign_type, 'DISCOUNT_COUPONS')
	})
	await step('campaigns.get waits for the generation', async () => {
		const c = await until('campaign generation', () => client.campaigns.get(s.campaign.id), (c) => c.creation_status === 'DONE')
		assert.equal(c.vouchers_count, 3)
		assert.equal(c.name, s.campaign.name)
	})
	await step('campaigns.list reads .campaigns', async () => {
		const got = listed(await client.campaigns.list({ limit: 100 }), 'campaigns').map((c) => c.id)
		assert.ok(got.includes(s.campaign.id), `campaigns.list misses ${s.campaign.id}`)
	})
	await step('vouchers.list reads .vouchers (campaign filter)', async () => {
		const res = await client.vouchers.list({ campaign_id: s.campaign.id, limit: 10 })
		s.generated = listed(res, 'vouchers')
		assert.equal(s.generated.length, 3)
		assert.equal(res.total, 3)
		for (const v of s.generated) {
			assert.match(v.code, /^SUM-/)
			assert.equal(v.campaign_id, s.campaign.id)
			assert.equal(v.discount.percent_off, 10)
		}
	})
	await step('vouchers.list by campaign name', async () => {
		const res = await client.vouchers.list({ campaign: s.campaign.name })
		assert.equal(listed(res, 'vouchers').length, 3)
	})
	await step('campaigns.addVoucher (one)', async () => {
		const v = await client.campaigns.addVoucher(s.campaign.id, { metadata: { added: true } })
		assert.equal(v.campaign_id, s.campaign.id)
		assert.equal(v.object, 'voucher')
	})
	await step('campaigns.addCertainVoucher', async () => {
		const v = await client.campaigns.addCertainVoucher(s.campaign.id, `SUM-CERTAIN-${run}`)
		assert.equal(v.code, `SUM-CERTAIN-${run}`)
	})
	await step('campaigns.update', async () => {
		const c = await client.campaigns.update(s.campaign.id, { description: 'Hot days', metadata: { season: 'late summer' } })
		assert.equal(c.description, 'Hot days')
		assert.deepEqual(c.metadata, { season: 'late summer' })
	})
	await step('campaigns.disable and enable', async () => {
		await client.campaigns.disable(s.campaign.id)
		assert.equal((await client.campaigns.get(s.campaign.id)).active, false)
		await client.campaigns.enable(s.campaign.id)
		assert.equal((await client.campaigns.get(s.campaign.id)).active, true)
	})
	await step('campaigns.importVouchers', async () => {
		const res = await client.campaigns.importVouchers(s.campaign.id, [{ code: `SUM-IMP-${run}` }])
		assert.match(res.async_action_id, /^aa_/)
		s.importAction = res.async_action_id
		await until('import', () => client.asyncActions.get(res.async_action_id), (a) => a.status === 'DONE')
		const v = await client.vouchers.get(`SUM-IMP-${run}`)
		assert.equal(v.campaign_id, s.campaign.id)
	})

	// Campaign creation as the SDKs' own suites drive it: create, then at
	// once, without waiting for the generation, add vouchers, import, update
	// and delete. Every call is accepted; the changes run after the
	// generation, so the campaign ends as if they had waited for it.
	await step('campaigns.create then at once addCertainVoucher, addVoucher (count), importVouchers, update', async () => {
		const c = await client.campaigns.create({ name: `Rush ${run}`, vouchers_count: 20, voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } } })
		assert.equal(c.creation_status, 'IN_PROGRESS')
		const one = await client.campaigns.addCertainVoucher(c.id, `RUSH-ONE-${run}`)
		assert.equal(one.campaign_id, c.id)
		const more = await client.campaigns.addVoucher(c.id, { vouchers_count: 2 })
		assert.match(more.async_action_id, /^aa_/)
		const imp = await client.campaigns.importVouchers(c.id, [{ code: `RUSH-IMP-${run}` }])
		assert.match(imp.async_action_id, /^aa_/)
		const upd = await client.campaigns.update(c.id, { description: 'rushed', discount: { type: 'PERCENT', percent_off: 20 } })
		assert.equal(upd.description, 'rushed')
		// DONE once the last job asked for (the update's) has ended.
		const done = await until('campaign jobs', () => client.campaigns.get(c.id), (x) => x.creation_status === 'DONE')
		assert.equal(done.vouchers_count, 24)
		assert.equal((await client.asyncActions.get(imp.async_action_id)).status, 'DONE')
		const vs = listed(await client.vouchers.list({ campaign_id: c.id, limit: 100 }), 'vouchers')
		assert.equal(vs.length, 24)
		for (const v of vs) assert.equal(v.discount.percent_off, 20, `voucher ${v.code} missed the update`)
	})
	await step('campaigns.create then at once addCertainVoucher, importVouchers, update, delete', async () => {
		const c = await client.campaigns.create({ name: `Gone ${run}`, vouchers_count: 20, voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } })
		await client.campaigns.addCertainVoucher(c.id, `GONE-ONE-${run}`)
		await client.campaigns.importVouchers(c.id, [{ code: `GONE-IMP-${run}` }])
		await client.campaigns.update(c.id, { description: 'going' })
		const del = await client.campaigns.delete(c.id)
		assert.match(del.async_action_id, /^aa_/)
		await assert.rejects(client.campaigns.get(c.id), (err) => err.code === 404)
		await until('campaign delete', () => client.asyncActions.get(del.async_action_id), (a) => a.status === 'DONE')
		assert.equal(listed(await client.vouchers.list({ campaign_id: c.id }), 'vouchers').length, 0)
		await assert.rejects(client.vouchers.get(`GONE-ONE-${run}`), (err) => err.code === 404)
	})
	await step('campaigns.create without vouchers_count is DONE at once', async () => {
		const c = await client.campaigns.create({ name: `Empty ${run}`, voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } })
		assert.equal(c.creation_status, 'DONE')
		assert.equal(c.vouchers_generation_status, 'DONE')
		assert.equal(c.vouchers_count, 0)
	})

	// Standalone vouchers.
	await step('vouchers.create without type (inferred from discount)', async () => {
		s.voucher = await client.vouchers.create({ code: `SOLO-${run}`, discount: { type: 'AMOUNT', amount_off: 500 }, metadata: { channel: 'sdk' } })
		assert.equal(s.voucher.code, `SOLO-${run}`)
		assert.equal(s.voucher.type, 'DISCOUNT_VOUCHER')
		assert.equal(s.voucher.discount.amount_off, 500)
	})
	await step('vouchers.create without code (generated)', async () => {
		const v = await client.vouchers.create({ type: 'GIFT_VOUCHER', gift: { amount: 10000 } })
		assert.ok(v.code.length > 0)
		assert.equal(v.gift.amount, 10000)
		assert.equal(v.gift.balance, 10000)
		s.gift = v
	})
	await step('vouchers.get', async () => {
		const v = await client.vouchers.get(s.voucher.code)
		assert.equal(v.id, s.voucher.id)
		assert.deepEqual(v.metadata, { channel: 'sdk' })
	})
	await step('vouchers.update', async () => {
		const v = await client.vouchers.update({ code: s.voucher.code, expiration_date: '2099-12-31T00:00:00Z', metadata: { channel: 'sdk', n: 2 } })
		assert.equal(v.expiration_date, '2099-12-31T00:00:00.000Z')
		assert.deepEqual(v.metadata, { channel: 'sdk', n: 2 })
	})
	await step('vouchers.disable and enable', async () => {
		assert.equal((await client.vouchers.disable(s.voucher.code)).active, false)
		assert.equal((await client.vouchers.enable(s.voucher.code)).active, true)
	})
	await step('vouchers.list reads .vouchers', async () => {
		const got = listed(await client.vouchers.list({ limit: 100 }), 'vouchers').map((v) => v.code)
		for (const code of [s.voucher.code, s.gift.code]) assert.ok(got.includes(code), `vouchers.list misses ${code}`)
	})
	await step('vouchers.delete', async () => {
		const v = await client.vouchers.create({ code: `GONE-${run}`, discount: { type: 'PERCENT', percent_off: 5 } })
		await client.vouchers.delete(v.code, { force: true })
		await assert.rejects(client.vouchers.get(v.code), (err) => err.code === 404 && err.key === 'not_found')
	})
	await step('errors arrive as VoucherifyError', async () => {
		await assert.rejects(client.vouchers.get(`MISSING-${run}`), (err) => {
			assert.equal(err.code, 404)
			assert.equal(err.key, 'not_found')
			assert.equal(err.resource_type, 'voucher')
			return true
		})
	})

	// Async actions.
	await step('asyncActions.list reads .async_actions', async () => {
		const got = listed(await client.asyncActions.list({ limit: 100 }), 'async_actions').map((a) => a.id)
		assert.ok(got.includes(s.importAction), `asyncActions.list misses ${s.importAction}`)
	})
	await step('asyncActions.get', async () => {
		const a = await client.asyncActions.get(s.importAction)
		assert.equal(a.id, s.importAction)
		assert.equal(a.status, 'DONE')
	})

	// Customers and orders.
	await step('customers.create and get', async () => {
		s.customer = await client.customers.create({ source_id: `alice-${run}`, name: 'Alice', email: 'alice@example.com', metadata: { tier: 'gold' } })
		assert.match(s.customer.id, /^cust_/)
		const c = await client.customers.get(s.customer.source_id)
		assert.equal(c.id, s.customer.id)
		assert.equal(c.email, 'alice@example.com')
	})
	await step('segments.create (static and auto-update), get, list and delete', async () => {
		const gold = await client.segments.create({ name: `Gold ${run}`, type: 'auto-update',
			filter: { junction: 'and', 'metadata.tier': { conditions: { $is: 'gold' } } } })
		assert.match(gold.id, /^seg_/)
		assert.equal(gold.object, 'segment')
		const picked = await client.segments.create({ name: `Picked ${run}`, type: 'static', customers: [s.customer.id] })
		assert.equal((await client.segments.get(gold.id)).name, gold.name)
		const mine = listed(await client.segments.list(s.customer.id), 'data').map((x) => x.id).sort()
		assert.deepEqual(mine, [gold.id, picked.id].sort())
		await client.segments.delete(picked.id)
		await assert.rejects(client.segments.get(picked.id), (err) => err.code === 404)
		await client.segments.delete(gold.id)
	})
	await step('distributions.publications.create, list and customers.listRedeemables', async () => {
		// STATIC: an AUTO_UPDATE campaign would generate a third code for carol.
		const c = await client.campaigns.create({ name: `Publish ${run}`, type: 'STATIC', vouchers_count: 2, voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300 } } })
		await until('campaign generation', () => client.campaigns.get(c.id), (x) => x.creation_status === 'DONE')
		const pub = await client.distributions.publications.create({ campaign: { name: c.name }, customer: { source_id: s.customer.source_id }, source_id: `pub-${run}`, metadata: { n: 1 } })
		assert.match(pub.id, /^pub_/)
		assert.equal(pub.customer_id, s.customer.id)
		assert.equal(pub.voucher.holder_id, s.customer.id)
		assert.equal(pub.voucher.publish.count, 1)
		assert.deepEqual(pub.vouchers_id, [pub.voucher.id])
		const again = await client.distributions.publications.create({ campaign: { name: c.name }, customer: { source_id: s.customer.source_id }, source_id: `pub-${run}` })
		assert.equal(again.id, pub.id, 'the same source_id answers the same publication')
		const other = await client.distributions.publications.create({ campaign: { name: c.name }, customer: { source_id: `bob-${run}` } })
		assert.notEqual(other.voucher.code, pub.voucher.code)
		await assert.rejects(client.distributions.publications.create({ campaign: { name: c.name }, customer: { source_id: `carol-${run}` } }),
			(err) => err.code === 400 && err.key === 'no_voucher_suitable_for_publication')
		const list = listed(await client.distributions.publications.list({ source_id: `pub-${run}` }), 'publications')
		assert.deepEqual(list.map((p) => p.id), [pub.id])
		assert.equal(list[0].voucher.code, pub.voucher.code)
		const wallet = await client.customers.listRedeemables(s.customer.source_id, { limit: 10 })
		assert.equal(wallet.object, 'list')
		assert.equal(wallet.data_ref, 'data')
		assert.deepEqual(wallet.data.map((h) => h.redeemable.voucher.code), [pub.voucher.code])
		assert.equal(wallet.data[0].redeemable.status, 'ACTIVE')
	})
	await step('orders.create', async () => {
		s.order = await client.orders.create({
			source_id: `order-${run}`,
			customer: { source_id: s.customer.source_id },
			items: [
				{ product_id: s.shirt.id, quantity: 2 },
				{ sku_id: s.sku.id, quantity: 1 },
			],
		})
		assert.match(s.order.id, /^ord_/)
		assert.equal(s.order.amount, 2 * 2700 + 2600)
		assert.equal(s.order.customer_id, s.customer.id)
	})
	await step('orders.get and update', async () => {
		assert.equal((await client.orders.get(s.order.id)).source_id, s.order.source_id)
		const o = await client.orders.update({ id: s.order.id, status: 'PAID', metadata: { paid_by: 'card' } })
		assert.equal(o.status, 'PAID')
	})
	await step('orders.list reads .orders', async () => {
		const got = listed(await client.orders.list({ limit: 100 }), 'orders').map((o) => o.id)
		assert.ok(got.includes(s.order.id), `orders.list misses ${s.order.id}`)
	})

	// Promotions.
	await step('promotions.create', async () => {
		s.promotion = await client.promotions.create({
			name: `Cart promo ${run}`,
			campaign_type: 'PROMOTION',
			promotion: { tiers: [{ name: '20% off', banner: '20% off everything', action: { discount: { type: 'PERCENT', percent_off: 20 } } }] },
		})
		assert.equal(s.promotion.campaign_type, 'PROMOTION')
		s.tiers = listed(s.promotion.promotion, 'tiers')
		assert.equal(s.tiers.length, 1)
	})
	await step('promotions.tiers.create, list and get', async () => {
		const t = await client.promotions.tiers.create(s.promotion.id, { name: '5 off', action: { discount: { type: 'AMOUNT', amount_off: 500 } } })
		assert.match(t.id, /^promo_/)
		const list = listed(await client.promotions.tiers.list(s.promotion.id), 'tiers')
		assert.deepEqual(ids(list), ids([...s.tiers, t]))
		assert.equal((await client.promotions.tiers.get(t.id)).name, '5 off')
		const all = listed(await client.promotions.tiers.listAll({ limit: 100 }), 'tiers')
		assert.ok(all.some((x) => x.id === t.id), 'promotions.tiers.listAll misses the new tier')
	})
	await step('promotions.validate', async () => {
		const res = await client.promotions.validate({ order: { amount: 10000 } })
		assert.equal(res.valid, true)
		const mine = res.promotions.filter((p) => p.campaign_name === s.promotion.name || s.tiers.some((t) => t.id === p.id))
		assert.ok(mine.length >= 1, `promotions.validate: no promotion of ${s.promotion.name} in ${JSON.stringify(res.promotions.map((p) => p.id))}`)
	})

	// Stackable validation.
	await step('validations.validateStackable', async () => {
		const res = await client.validations.validateStackable({
			customer: { source_id: s.customer.source_id },
			order: { items: [{ product_id: s.shirt.id, quantity: 2 }] },
			redeemables: [
				{ object: 'voucher', id: s.voucher.code },
				{ object: 'promotion_tier', id: s.tiers[0].id },
			],
		})
		assert.equal(res.valid, true, JSON.stringify(res).slice(0, 1000))
		assert.deepEqual(res.redeemables.map((r) => [r.object, r.id, r.status]), [
			['voucher', s.voucher.code, 'APPLICABLE'],
			['promotion_tier', s.tiers[0].id, 'APPLICABLE'],
		])
		assert.equal(res.order.amount, 5400)
		// 5.00 off, then 20% of the rest: 500 + 980.
		assert.equal(res.order.total_applied_discount_amount, 1480)
	})
	await step('validations.validate (legacy voucher validation)', async () => {
		const res = await client.validations.validate(s.voucher.code, { order: { amount: 3000 } })
		assert.equal(res.valid, true, JSON.stringify(res).slice(0, 1000))
		assert.equal(res.code, s.voucher.code)
	})

	// Validation rules.
	await step('validationRules.create, get, update', async () => {
		s.rule = await client.validationRules.create({
			name: `Big carts ${run}`,
			rules: { 1: { name: 'order.amount', conditions: { $more_than: [10000] } }, logic: '1' },
			error: { message: 'Order too small' },
		})
		assert.match(s.rule.id, /^val_/)
		assert.equal((await client.validationRules.get(s.rule.id)).name, s.rule.name)
		const u = await client.validationRules.update({ id: s.rule.id, name: `Bigger carts ${run}` })
		assert.equal(u.name, `Bigger carts ${run}`)
	})
	await step('validationRules.list reads .data', async () => {
		const got = listed(await client.validationRules.list({ limit: 100 }), 'data').map((r) => r.id)
		assert.ok(got.includes(s.rule.id), `validationRules.list misses ${s.rule.id}`)
	})
	await step('validationRules.createAssignment, listAssignments, deleteAssignment', async () => {
		const a = await client.validationRules.createAssignment(s.rule.id, { related_object_type: 'voucher', related_object_id: s.voucher.code })
		assert.match(a.id, /^asgm_/)
		assert.equal(a.rule_id, s.rule.id)
		const list = listed(await client.validationRules.listAssignments(s.rule.id), 'data')
		assert.deepEqual(ids(list), [a.id])
		const all = listed(await client.validationRules.listRulesAssignments({ rule: s.rule.id }), 'data')
		assert.ok(all.some((x) => x.id === a.id), 'listRulesAssignments misses the assignment')
		// The rule now applies to the voucher: a small cart fails it.
		const res = await client.validations.validateStackable({ order: { amount: 3000 }, redeemables: [{ object: 'voucher', id: s.voucher.code }] })
		assert.equal(res.valid, false)
		await client.validationRules.deleteAssignment(s.rule.id, a.id)
		assert.deepEqual(listed(await client.validationRules.listAssignments(s.rule.id), 'data'), [])
	})
	await step('validationRules.delete', async () => {
		await client.validationRules.delete(s.rule.id)
		await assert.rejects(client.validationRules.get(s.rule.id), (err) => err.code === 404)
	})

	// Rewards and categories.
	await step('rewards.create, list (.data), update, delete', async () => {
		const r = await client.rewards.create({ name: `Mug reward ${run}`, parameters: { product: { id: s.mug.id } }, stock: 10 })
		assert.equal(r.type, 'MATERIAL')
		assert.ok(listed(await client.rewards.list({ limit: 100 }), 'data').some((x) => x.id === r.id), 'rewards.list misses the reward')
		assert.equal((await client.rewards.update({ id: r.id, stock: 5 })).stock, 5)
		await client.rewards.delete(r.id)
	})
	await step('categories.create, get, list (.data)', async () => {
		const c = await client.categories.create({ name: `cat-${run}`, hierarchy: 1 })
		assert.match(c.id, /^cat_/)
		assert.equal((await client.categories.get(c.id)).name, c.name)
		assert.ok(listed(await client.categories.list(), 'data').some((x) => x.id === c.id), 'categories.list misses the category')
	})

	// Query strings as the SDK serializes them (qs: brackets, indexed arrays).
	await step('vouchers.list with ids (qs indexed array)', async () => {
		const res = await client.vouchers.list({ ids: [s.voucher.id, s.gift.id] })
		assert.deepEqual(ids(listed(res, 'vouchers')), ids([s.voucher, s.gift]))
	})
	await step('vouchers.list with created_at[after] and order', async () => {
		// Strictly after a millisecond before the voucher: the voucher and what
		// came after it, oldest first.
		const after = new Date(Date.parse(s.voucher.created_at) - 1).toISOString()
		const res = await client.vouchers.list({ created_at: { after }, order: 'created_at', limit: 100 })
		const got = listed(res, 'vouchers')
		assert.ok(got.some((v) => v.id === s.voucher.id), `the voucher created at ${s.voucher.created_at} is not listed`)
		assert.ok(got.every((v, i) => v.created_at > after && (i === 0 || got[i - 1].created_at <= v.created_at)), JSON.stringify(got.map((v) => v.created_at)))
	})
	await step('products.list with filters (qs nested)', async () => {
		const res = await client.products.list({ filters: { junction: 'and', source_id: { conditions: { $in: [s.shirt.source_id, s.mug.source_id] } } } })
		assert.deepEqual(ids(listed(res, 'products')), ids([s.shirt, s.mug]))
	})
	await step('products.list paging', async () => {
		const page1 = listed(await client.products.list({ limit: 1, page: 1 }), 'products')
		const page2 = listed(await client.products.list({ limit: 1, page: 2 }), 'products')
		assert.equal(page1.length, 1)
		assert.equal(page2.length, 1)
		assert.notEqual(page1[0].id, page2[0].id)
	})

	// More campaign shapes.
	await step('campaigns.addVoucher with a bare count (async)', async () => {
		const res = await client.campaigns.addVoucher(s.campaign.id, 2)
		assert.match(res.async_action_id, /^aa_/)
		await until('bulk add', () => client.asyncActions.get(res.async_action_id), (a) => a.status === 'DONE')
		assert.equal(listed(await client.vouchers.list({ campaign_id: s.campaign.id, limit: 100 }), 'vouchers').length, 3 + 1 + 1 + 1 + 2)
	})
	await step('campaigns.create with a category and validation rules', async () => {
		const rule = await client.validationRules.create({ name: `Gold only ${run}`, rules: { 1: { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } } } })
		const c = await client.campaigns.create({
			name: `Gold ${run}`,
			category: `vip-${run}`,
			validation_rules: [rule.id],
			voucher: { discount: { type: 'AMOUNT', amount_off: 1000 } },
		})
		assert.equal(c.campaign_type, 'DISCOUNT_COUPONS')
		assert.equal(c.category, `vip-${run}`)
		assert.deepEqual(c.validation_rules_assignments.data.map((a) => a.rule_id), [rule.id])
		// A campaign takes vouchers and changes once its (empty) generation
		// has ended, as an application waits for it.
		await until('campaign generation', () => client.campaigns.get(c.id), (x) => x.creation_status === 'DONE')
		const v = await client.campaigns.addCertainVoucher(c.id, `GOLD-${run}`)
		const ok = await client.validations.validateStackable({ customer: { source_id: s.customer.source_id }, order: { amount: 5000 }, redeemables: [{ object: 'voucher', id: v.code }] })
		assert.equal(ok.valid, true, JSON.stringify(ok).slice(0, 800))
		const ko = await client.validations.validateStackable({ customer: { source_id: `nobody-${run}` }, order: { amount: 5000 }, redeemables: [{ object: 'voucher', id: v.code }] })
		assert.equal(ko.valid, false)
		assert.equal(ko.redeemables[0].status, 'INAPPLICABLE')
		const cleared = await client.campaigns.update(c.id, { category: null })
		assert.equal(cleared.category_id, null)
		assert.deepEqual(cleared.categories, [])
	})
	await step('campaigns.create GIFT_VOUCHERS and validate credits', async () => {
		const c = await client.campaigns.create({ name: `Gift ${run}`, campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000 } } })
		await until('campaign generation', () => client.campaigns.get(c.id), (x) => x.creation_status === 'DONE')
		const v = await client.campaigns.addVoucher(c.id)
		assert.equal(v.gift.balance, 5000)
		const res = await client.validations.validateStackable({
			order: { amount: 3000 },
			redeemables: [{ object: 'voucher', id: v.code, gift: { credits: 2000 } }],
			options: { expand: ['order', 'redeemable'] },
		})
		assert.equal(res.valid, true, JSON.stringify(res).slice(0, 800))
		assert.equal(res.order.total_amount, 1000)
	})

	// Tiers and stacks.
	await step('promotions.tiers.update and delete', async () => {
		const t = await client.promotions.tiers.create(s.promotion.id, { name: 'temp', action: { discount: { type: 'AMOUNT', amount_off: 100 } } })
		const u = await client.promotions.tiers.update({ id: t.id, name: 'temp 2', metadata: { k: 'v' } })
		assert.equal(u.name, 'temp 2')
		assert.deepEqual(u.metadata, { k: 'v' })
		await client.promotions.tiers.delete(t.id)
		await assert.rejects(client.promotions.tiers.get(t.id), (err) => err.code === 404)
	})
	await step('promotions.stack create, get, update, list (.data), delete', async () => {
		const tiers = listed(await client.promotions.tiers.list(s.promotion.id), 'tiers')
		const st = await client.promotions.stack.createInCampaign(s.promotion.id, { name: 'both', tiers: { ids: tiers.map((t) => t.id), hierarchy_mode: 'MANUAL' } })
		assert.match(st.id, /^stack_/)
		assert.equal(st.campaign_id, s.promotion.id)
		assert.equal((await client.promotions.stack.get(s.promotion.id, st.id)).name, 'both')
		const u = await client.promotions.stack.update(s.promotion.id, st.id, { name: 'both tiers' })
		assert.equal(u.name, 'both tiers')
		assert.deepEqual(listed(await client.promotions.stack.listInCampaign(s.promotion.id), 'data').map((x) => x.id), [st.id])
		assert.ok(listed(await client.promotions.stack.list({ limit: 100 }), 'data').some((x) => x.id === st.id))
		const res = await client.validations.validateStackable({ order: { amount: 10000 }, redeemables: [{ object: 'promotion_stack', id: st.id }] })
		assert.equal(res.valid, true, JSON.stringify(res).slice(0, 800))
		await client.promotions.stack.delete(s.promotion.id, st.id)
	})

	// Odds and ends an application does.
	await step('customers.create upserts by source_id', async () => {
		const again = await client.customers.create({ source_id: s.customer.source_id, name: 'Alice B.' })
		assert.equal(again.id, s.customer.id)
		assert.equal(again.name, 'Alice B.')
	})
	await step('orders.create with items by source_id and an amount', async () => {
		const o = await client.orders.create({
			amount: 3000,
			items: [{ source_id: s.mug.source_id, related_object: 'product', quantity: 3 }],
			metadata: { store: 'web' },
		})
		assert.equal(o.amount, 3000)
		assert.equal(o.items[0].product_id, s.mug.id)
	})
	await step('rewards.get', async () => {
		const r = await client.rewards.create({ name: `Coins ${run}`, parameters: { coin: { exchange_ratio: 0.5 } } })
		const got = await client.rewards.get(r.id)
		assert.equal(got.type, 'COIN')
		assert.equal(got.parameters.coin.exchange_ratio, 0.5)
	})
	await step('promotions.validate with a customer and items', async () => {
		const res = await client.promotions.validate({
			customer: { source_id: s.customer.source_id },
			order: { items: [{ product_id: s.shirt.id, quantity: 1 }] },
		})
		assert.equal(res.valid, true)
		const p = res.promotions.find((x) => x.id === s.tiers[0].id)
		assert.ok(p, 'the 20% tier is not offered')
		assert.equal(p.discount.percent_off, 20)
		assert.equal(p.order.total_discount_amount, 540)
	})

	// Redemptions: spend, read, roll back (the checkout loop).
	await step('redemptions.redeemStackable spends a single-use voucher once', async () => {
		s.once = await client.vouchers.create({ code: `ONCE-${run}`, discount: { type: 'AMOUNT', amount_off: 300 }, redemption: { quantity: 1 } })
		const res = await client.redemptions.redeemStackable({
			customer: { source_id: s.customer.source_id },
			order: { amount: 5000 },
			redeemables: [{ object: 'voucher', id: s.once.code }],
		})
		assert.equal(res.redemptions.length, 1, JSON.stringify(res).slice(0, 800))
		s.onceRedemption = res.redemptions[0]
		assert.match(s.onceRedemption.id, /^r_/)
		assert.equal(s.onceRedemption.result, 'SUCCESS')
		assert.equal(res.parent_redemption, undefined)
		assert.equal(res.order.total_amount, 4700)
		assert.equal(res.order.status, 'PAID')
		const got = await client.redemptions.get(s.onceRedemption.id)
		assert.equal(got.status, 'SUCCEEDED')
		assert.equal(got.voucher.redemption.redeemed_quantity, 1)
		await assert.rejects(
			client.redemptions.redeemStackable({ order: { amount: 5000 }, redeemables: [{ object: 'voucher', id: s.once.code }] }),
			(err) => {
				s.failedRedemption = err.resource_id
				return err.code === 400 && err.key === 'quantity_exceeded' && err.resource_type === 'redemption' && /^rf_/.test(err.resource_id)
			},
		)
	})
	await step('redemptions.getForVoucher and list({result: FAILURE})', async () => {
		const forVoucher = await client.redemptions.getForVoucher(s.once.code)
		assert.equal(forVoucher.quantity, 1)
		assert.equal(forVoucher.redeemed_quantity, 1)
		const entries = listed(forVoucher, 'redemption_entries')
		assert.ok(entries.some((r) => r.id === s.onceRedemption.id), 'getForVoucher misses the redemption')
		const failed = listed(await client.redemptions.list({ result: 'FAILURE', limit: 100 }), 'redemptions')
		const f = failed.find((r) => r.id === s.failedRedemption)
		assert.ok(f, `the failed redemption ${s.failedRedemption} is not listed`)
		assert.equal(f.failure_code, 'quantity_exceeded')
		assert.equal(f.status, 'FAILED')
	})
	await step('redemptions.rollback gives the unit back; redeem (legacy) spends it again', async () => {
		const rb = await client.redemptions.rollback(s.onceRedemption.id, { reason: 'order canceled', customer: { source_id: s.customer.source_id } })
		assert.match(rb.id, /^rr_/)
		assert.equal(rb.result, 'SUCCESS')
		assert.equal(rb.redemption, s.onceRedemption.id)
		assert.equal(rb.reason, 'order canceled')
		assert.equal((await client.vouchers.get(s.once.code)).redemption.redeemed_quantity, 0)
		await assert.rejects(client.redemptions.rollback(s.onceRedemption.id), (err) => err.code === 400 && err.key === 'already_rolled_back')
		const again = await client.redemptions.redeem(s.once.code, { order: { amount: 2000 } })
		assert.equal(again.result, 'SUCCESS')
		assert.equal(again.voucher.redemption.redeemed_quantity, 1)
	})
	await step('redemptions.redeemStackable with a parent, then rollbackStackable', async () => {
		const v = await client.vouchers.create({ code: `PAIR-${run}`, discount: { type: 'AMOUNT', amount_off: 500 } })
		const res = await client.redemptions.redeemStackable({
			customer: { source_id: s.customer.source_id },
			order: { items: [{ product_id: s.shirt.id, quantity: 2 }] },
			redeemables: [
				{ object: 'voucher', id: v.code },
				{ object: 'promotion_tier', id: s.tiers[0].id },
			],
		})
		assert.ok(res.parent_redemption, JSON.stringify(res).slice(0, 800))
		assert.match(res.parent_redemption.id, /^r_/)
		assert.deepEqual(res.redemptions.map((r) => r.redemption), [res.parent_redemption.id, res.parent_redemption.id])
		const back = await client.redemptions.rollbackStackable(res.parent_redemption.id, {}, { reason: 'returned' })
		assert.equal(back.rollbacks.length, 2, JSON.stringify(back).slice(0, 800))
		assert.ok(back.rollbacks.every((r) => r.result === 'SUCCESS'))
		assert.equal(back.order.status, 'CANCELED')
	})

	// List parameters the SDK types offer.
	await step('campaigns.list by campaign_type', async () => {
		const got = listed(await client.campaigns.list({ campaign_type: 'PROMOTION', limit: 100 }), 'campaigns')
		assert.ok(got.length >= 1 && got.every((c) => c.campaign_type === 'PROMOTION'), JSON.stringify(got.map((c) => c.campaign_type)))
	})
	await step('promotions.tiers.listAll({is_available: true})', async () => {
		const got = listed(await client.promotions.tiers.listAll({ is_available: true, limit: 100 }), 'tiers')
		assert.ok(got.some((t) => t.id === s.tiers[0].id))
	})
	await step('orders.list({order: created_at})', async () => {
		const got = listed(await client.orders.list({ order: 'created_at', limit: 100 }), 'orders')
		assert.ok(got.length >= 2)
		for (let i = 1; i < got.length; i++) assert.ok(got[i - 1].created_at <= got[i].created_at)
	})
	await step('asyncActions.list({end_date})', async () => {
		const got = listed(await client.asyncActions.list({ limit: 100, end_date: new Date(Date.now() + 60000).toISOString() }), 'async_actions')
		assert.ok(got.some((a) => a.id === s.importAction))
	})
	await step('validationRules.listRulesAssignments({related_object_id})', async () => {
		const rule = await client.validationRules.create({ name: `Assigned ${run}`, rules: { 1: { name: 'order.amount', conditions: { $more_than: [1] } } } })
		// The body the SDK types (ValidationRulesCreateAssignment): { voucher: code }.
		const a = await client.validationRules.createAssignment(rule.id, { voucher: s.gift.code })
		assert.equal(a.related_object_type, 'voucher')
		const got = listed(await client.validationRules.listRulesAssignments({ related_object_id: s.gift.id }), 'data')
		assert.deepEqual(ids(got), [a.id])
	})
	await step('products.updateSku and update by source_id', async () => {
		const k = await client.products.updateSku(s.shirt.source_id, { source_id: s.sku.source_id, price: 2800 })
		assert.equal(k.price, 2800)
		const p = await client.products.update({ source_id: s.shirt.source_id, name: 'Tee' })
		assert.equal(p.id, s.shirt.id)
		assert.equal(p.name, 'Tee')
	})
	await step('validations.validate(object) is promotion validation', async () => {
		const res = await client.validations.validate({ order: { amount: 10000 } })
		assert.equal(res.valid, true)
		assert.ok(Array.isArray(res.promotions))
	})
	await step('campaigns.get by name', async () => {
		const c = await client.campaigns.get(s.campaign.name)
		assert.equal(c.id, s.campaign.id)
	})
	await step('validationRules.update with the whole rule', async () => {
		const r = await client.validationRules.create({ name: `Whole ${run}`, rules: { 1: { name: 'order.amount', conditions: { $more_than: [1] } }, logic: '1' } })
		const got = await client.validationRules.get(r.id)
		const u = await client.validationRules.update({ ...got, name: `Whole 2 ${run}` })
		assert.equal(u.name, `Whole 2 ${run}`)
		assert.deepEqual(u.rules, got.rules)
	})
	await step('promotions.tiers.update with the whole tier', async () => {
		const t = await client.promotions.tiers.get(s.tiers[0].id)
		const u = await client.promotions.tiers.update({ ...t, banner: 'new banner' })
		assert.equal(u.banner, 'new banner')
	})
	await step('vouchers.update with the whole voucher', async () => {
		const v = await client.vouchers.get(s.voucher.code)
		const u = await client.vouchers.update({ ...v, metadata: { whole: true } })
		assert.deepEqual(u.metadata, { whole: true })
	})
	await step('campaigns.update with the whole campaign', async () => {
		const c = await client.campaigns.get(s.campaign.id)
		const u = await client.campaigns.update(c.id, { ...c, description: 'whole' })
		assert.equal(u.description, 'whole')
	})
	await step('products.update with the whole product', async () => {
		const p = await client.products.get(s.shirt.id)
		const u = await client.products.update({ ...p, price: 2900 })
		assert.equal(u.price, 2900)
	})
	await step('orders.update with the whole order', async () => {
		const o = await client.orders.get(s.order.id)
		const u = await client.orders.update({ ...o, status: 'FULFILLED' })
		assert.equal(u.status, 'FULFILLED')
	})
	await step('rewards.update with the whole reward', async () => {
		const r = await client.rewards.create({ name: `Whole reward ${run}`, parameters: { product: { id: s.mug.id } }, stock: 3 })
		const u = await client.rewards.update({ ...(await client.rewards.get(r.id)), stock: 4 })
		assert.equal(u.stock, 4)
	})

	// The client-side SDK (VoucherifyClientSide), when a client key pair is
	// given (PROMO_CLIENT_ID, PROMO_CLIENT_TOKEN, PROMO_CLIENT_ORIGIN).
	if (process.env.PROMO_CLIENT_ID) {
		const browser = VoucherifyClientSide({
			clientApplicationId: env('PROMO_CLIENT_ID'),
			clientSecretKey: env('PROMO_CLIENT_TOKEN'),
			origin: env('PROMO_CLIENT_ORIGIN'),
			apiUrl: env('PROMO_API_URL'),
			timeoutMs: 10000,
		})
		const code = `CLIENT-${run}`
		await step('client: validateStackable', async () => {
			await client.vouchers.create({ code, type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } })
			const res = await browser.validateStackable({ customer: { source_id: `browser-${run}` }, order: { amount: 3000 }, redeemables: [{ object: 'voucher', id: code }] })
			assert.equal(res.valid, true)
			assert.equal(res.order.total_applied_discount_amount ?? res.order.total_discount_amount, 500)
		})
		await step('client: redeemStackable spends the voucher', async () => {
			const res = await browser.redeemStackable({ customer: { source_id: `browser-${run}` }, order: { amount: 3000 }, redeemables: [{ object: 'voucher', id: code }] })
			assert.equal(res.redemptions.length, 1)
			assert.equal(res.redemptions[0].result, 'SUCCESS')
			const v = await client.vouchers.get(code)
			assert.equal(v.redemption.redeemed_quantity, 1)
		})
		await step('client: track a custom event', async () => {
			await assert.rejects(browser.track(`undefined-${run}`, { source_id: `browser-${run}` }), (err) => err.code === 400)
		})
		await step('client: a wrong origin is refused', async () => {
			const stranger = VoucherifyClientSide({
				clientApplicationId: env('PROMO_CLIENT_ID'),
				clientSecretKey: env('PROMO_CLIENT_TOKEN'),
				origin: 'https://stranger.example',
				apiUrl: env('PROMO_API_URL'),
				timeoutMs: 10000,
			})
			await assert.rejects(stranger.validateStackable({ order: { amount: 3000 }, redeemables: [{ object: 'voucher', id: code }] }), (err) => err.code === 401)
		})
	}

	// Loyalty programs.
	await step('loyalties.create, get and list', async () => {
		s.club = await client.loyalties.create({
			name: `Club ${run}`,
			type: 'AUTO_UPDATE',
			auto_join: true,
			vouchers_count: 0,
			voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 }, code_config: { pattern: 'CLUB-########' } },
		})
		assert.match(s.club.id, /^camp_/)
		assert.equal(s.club.campaign_type, 'LOYALTY_PROGRAM')
		assert.equal(s.club.join_once, true)
		assert.equal((await client.loyalties.get(s.club.id)).name, s.club.name)
		const got = listed(await client.loyalties.list({ limit: 100 }), 'campaigns').map((c) => c.id)
		assert.ok(got.includes(s.club.id), `loyalties.list misses ${s.club.id}`)
	})
	await step('loyalties.update', async () => {
		const c = await client.loyalties.update({ id: s.club.id, description: 'Our club' })
		assert.equal(c.description, 'Our club')
	})
	await step('loyalties.createEarningRule, get, list, disable and enable', async () => {
		const rules = await client.loyalties.createEarningRule(s.club.id, [
			{
				event: 'order.paid',
				source: { banner: '1 point per 10' },
				loyalty: { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 1000, points: 1 } } },
			},
		])
		assert.equal(rules.length, 1)
		s.rule = rules[0]
		assert.match(s.rule.id, /^ern_/)
		assert.equal((await client.loyalties.getEarningRule(s.club.id, s.rule.id)).event, 'order.paid')
		assert.deepEqual(listed(await client.loyalties.listEarningRules(s.club.id), 'data').map((r) => r.id), [s.rule.id])
		assert.equal((await client.loyalties.disableEarningRule(s.club.id, s.rule.id)).active, false)
		assert.equal((await client.loyalties.enableEarningRule(s.club.id, s.rule.id)).active, true)
		assert.equal((await client.loyalties.updateEarningRule(s.club.id, { id: s.rule.id, source: { banner: 'Every 10' } })).source.banner, 'Every 10')
	})
	await step('a paid order earns points and joins its customer (auto_join)', async () => {
		await client.orders.create({ source_id: `paid-${run}`, status: 'PAID', amount: 25990, customer: { source_id: `member-${run}` } })
		const members = listed(await client.loyalties.listMembers(s.club.id), 'vouchers')
		assert.equal(members.length, 1)
		s.card = members[0]
		assert.equal(s.card.loyalty_card.points, 25)
		assert.equal(s.card.loyalty_card.balance, 25)
	})
	await step('loyalties.createMember and getMember', async () => {
		const card = await client.loyalties.createMember(s.club.id, { customer: { source_id: `second-${run}` } })
		assert.equal(card.type, 'LOYALTY_CARD')
		assert.ok(card.holder_id)
		s.second = card
		assert.equal((await client.loyalties.getMember(s.club.id, card.code)).id, card.id)
		assert.equal((await client.loyalties.getMember(null, card.id)).code, card.code)
	})
	await step('loyalties.addPoints and addOrRemoveCardBalance', async () => {
		const b = await client.loyalties.addPoints(s.club.id, s.card.code, { points: 1000 })
		assert.deepEqual([b.points, b.total, b.balance, b.type, b.object], [1000, 1025, 1025, 'loyalty_card', 'balance'])
		const r = await client.loyalties.addOrRemoveCardBalance(s.card.code, { points: -25 })
		assert.equal(r.balance, 1000)
	})
	await step('loyalties.transferPoints', async () => {
		const card = await client.loyalties.transferPoints(s.club.id, s.second.code, [{ code: s.card.code, points: 100, reason: 'gift' }])
		assert.equal(card.code, s.second.code)
		assert.equal(card.loyalty_card.balance, 100)
	})
	await step('loyalties.createTiers, listTiers, getTier, tier earning rules and rewards, listMemberLoyaltyTiers', async () => {
		const tiers = await client.loyalties.createTiers(s.club.id, [
			{ name: 'Silver', points: { from: 1, to: 499 } },
			{ name: 'Gold', points: { from: 500 }, earning_rules: { [s.rule.id]: { type: 'MULTIPLY', multiplier: 2 } } },
		])
		assert.deepEqual(tiers.map((t) => t.name), ['Silver', 'Gold'])
		const gold = tiers[1]
		// Tiers created in one request share created_at: the list orders them by id.
		assert.match(gold.id, /^ltr_/)
		assert.deepEqual(listed(await client.loyalties.listTiers(s.club.id), 'data').map((t) => t.name).sort(), ['Gold', 'Silver'])
		assert.equal((await client.loyalties.getTier(s.club.id, gold.id)).name, 'Gold')
		const rules = listed(await client.loyalties.listLoyaltyTierEarningRules(s.club.id, gold.id), 'data')
		assert.deepEqual(rules.map((r) => [r.id, r.loyalty.order.amount.points]), [[s.rule.id, 2]])
		assert.deepEqual(listed(await client.loyalties.listLoyaltyTierRewards(s.club.id, gold.id), 'data'), [])
		const mine = listed(await client.loyalties.listMemberLoyaltyTiers(s.card.code), 'data')
		assert.deepEqual(mine.map((t) => t.name), ['Gold']) // a balance of 900
	})
	await step('loyalties.getPointsExpiration, exportCardTransactions and listMemberActivity', async () => {
		const buckets = listed(await client.loyalties.getPointsExpiration(s.club.id, s.card.code), 'data')
		assert.ok(buckets.length > 0, 'the card has no points buckets')
		assert.equal(buckets.reduce((sum, b) => sum + b.bucket.total_points, 0), 900)
		assert.ok(buckets.every((b) => b.object === 'loyalty_points_bucket' && b.status === 'ACTIVE'))
		const exp = await client.loyalties.exportCardTransactions(s.card.code, s.club.id, { parameters: { fields: ['id', 'type'] } })
		assert.equal(exp.exported_object, 'voucher_transactions')
		const activity = listed(await client.loyalties.listMemberActivity(s.club.id, s.card.code, { limit: 5 }), 'data')
		assert.ok(activity.length > 0, 'the member has no activity')
	})
	await step('loyalties.listCardTransactions', async () => {
		const txs = listed(await client.loyalties.listCardTransactions(s.card.code, s.club.id), 'data')
		assert.deepEqual(txs.map((t) => t.type), ['POINTS_TRANSFER_OUT', 'POINTS_REMOVAL', 'POINTS_ADDITION', 'POINTS_ACCRUAL'])
	})
	await step('loyalties.createRewardAssignments, list, get and getRewardDetails', async () => {
		s.reward = await client.rewards.create({ name: `Bonus ${run}`, parameters: { campaign: { id: s.club.id, balance: 5 } } })
		const as = await client.loyalties.createRewardAssignments(s.club.id, [{ reward: s.reward.id, parameters: { loyalty: { points: 300 } } }])
		assert.equal(as.length, 1)
		s.assignment = as[0]
		assert.match(s.assignment.id, /^rewa_/)
		assert.deepEqual(listed(await client.loyalties.listRewardAssignments(s.club.id), 'data').map((a) => a.id), [s.assignment.id])
		assert.equal((await client.loyalties.getRewardAssignment(s.club.id, s.assignment.id)).reward_id, s.reward.id)
		assert.equal((await client.loyalties.getRewardDetails(s.club.id, s.assignment.id)).id, s.reward.id)
		const rewards = listed(await client.loyalties.listMemberRewards(s.card.code, { affordable_only: true }), 'data')
		assert.deepEqual(rewards.map((r) => r.assignment.id), [s.assignment.id])
	})
	await step('loyalties.updateRewardAssignment', async () => {
		const a = await client.loyalties.updateRewardAssignment(s.club.id, { id: s.assignment.id, parameters: { loyalty: { points: 300 } } })
		assert.equal(a.id, s.assignment.id)
		assert.equal(a.parameters.loyalty.points, 300)
	})
	await step('loyalties.redeemReward', async () => {
		const r = await client.loyalties.redeemReward(s.club.id, s.card.code, { reward: { id: s.reward.id } })
		assert.equal(r.result, 'SUCCESS')
		assert.equal(r.amount, 300)
		const card = await client.loyalties.getMember(null, s.card.code)
		assert.equal(card.loyalty_card.balance, 900 - 300 + 5)
		await assert.rejects(client.loyalties.redeemReward(s.club.id, s.second.code, { reward: { id: s.reward.id } }), (err) => err.code === 400 && err.key === 'loyalty_card_points_exceeded')
	})
	await step('loyalties.deleteRewardAssignment, deleteEarningRule and delete', async () => {
		await client.loyalties.deleteRewardAssignment(s.club.id, s.assignment.id)
		await client.loyalties.deleteEarningRule(s.club.id, s.rule.id)
		await assert.rejects(client.loyalties.getEarningRule(s.club.id, s.rule.id), (err) => err.code === 404)
		const res = await client.loyalties.delete(s.club.id, { force: true })
		assert.match(res.async_action_id, /^aa_/)
		await until('program deletion', () => client.asyncActions.get(res.async_action_id), (a) => a.status === 'DONE')
		await assert.rejects(client.loyalties.get(s.club.id), (err) => err.code === 404)
	})

	// Referral programs: the SDK has no referrals module; a program is a
	// campaign, its codes are published, redeemed and tracked through the
	// other modules.
	await step('campaigns.create (REFERRAL_PROGRAM), a referral code redeemed by a referee, customers.get referrals', async () => {
		const gifts = await client.campaigns.create({ name: `Referral gifts ${run}`, type: 'AUTO_UPDATE', campaign_type: 'GIFT_VOUCHERS',
			vouchers_count: 0, voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1 } } })
		const program = await client.campaigns.create({ name: `Friends ${run}`, type: 'AUTO_UPDATE', campaign_type: 'REFERRAL_PROGRAM', vouchers_count: 0,
			voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, is_referral_code: true },
			referral_program: { conversion_event_type: 'redemption',
				referee_reward: { related_object_parent: { id: gifts.id, name: gifts.name, object: 'CAMPAIGN' }, type: 'GIFT_VOUCHER', amount: 500 } } })
		assert.equal(program.campaign_type, 'REFERRAL_PROGRAM')
		assert.equal(program.referral_program.conversion_event_type, 'redemption')
		const pub = await client.distributions.publications.create({ campaign: { id: program.id }, customer: { source_id: `referrer-${run}` } })
		const code = pub.voucher.code
		assert.equal(pub.voucher.is_referral_code, true)
		const redeem = (who) => client.redemptions.redeemStackable({ customer: { source_id: who }, order: { amount: 1000 },
			redeemables: [{ object: 'voucher', id: code }] })
		await assert.rejects(redeem(`referrer-${run}`), (err) => err.code === 400 && err.key === 'referrer_not_permitted_to_redeem')
		const res = await redeem(`referee-${run}`)
		assert.equal(res.order.total_discount_amount, 100)
		await redeem(`referee-${run}`) // a second redemption converts nobody again
		const referee = await client.customers.get(`referee-${run}`)
		assert.equal(referee.referrals.total, 1)
		assert.equal(referee.referrals.campaigns[0].campaign_id, program.id)
		assert.equal(referee.referrals.campaigns[0].referrer_id, pub.customer_id)
		assert.equal(referee.referrals.campaigns[0].related_object_type, 'redemption')
		const referrer = await client.customers.get(`referrer-${run}`)
		assert.equal(referrer.loyalty.referred_customers, 1)
		const cards = listed(await client.vouchers.list({ campaign: gifts.name, customer: referee.id }), 'vouchers')
		assert.equal(cards.length, 1)
		assert.equal(cards[0].gift.balance, 501, 'the referee reward credits a gift card published to the referee')
	})

	// Cleaning up through the SDK.
	await step('campaigns.delete', async () => {
		const res = await client.campaigns.delete(s.promotion.id, { force: true })
		assert.match(res.async_action_id, /^aa_/)
		await until('campaign deletion', () => client.asyncActions.get(res.async_action_id), (a) => a.status === 'DONE')
		await assert.rejects(client.campaigns.get(s.promotion.id), (err) => err.code === 404)
	})
	await step('products.deleteSku and delete', async () => {
		await client.products.deleteSku(s.shirt.id, s.sku.id, { force: true })
		await client.products.delete(s.mug.id, { force: true })
		await assert.rejects(client.products.get(s.mug.id), (err) => err.code === 404)
	})

	if (failures.length > 0) {
		console.error(`\n${failures.length} SDK acceptance step(s) failed:\n  ${failures.join('\n  ')}`)
		process.exit(1)
	}
	console.log('\nall SDK acceptance steps passed')
}

main().catch((err) => {
	console.error('acceptance.js crashed:', describe(err))
	process.exit(1)
})

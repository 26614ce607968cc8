/*
 * contract_api.c -- the public C API of the observation/action contract,
 * proposed for gota.h (prototypes in contract.h until they move there).
 *
 * Call errors are GOTA_ERR_* codes: NULL pointers (GOTA_ERR_NULL), a seat
 * outside 0..9 or a seat without a hero (GOTA_ERR_INDEX), a buffer shorter
 * than the contract's size (GOTA_ERR_BUFFER). The game's answer to an action
 * goes to *action_error, as for gota_match_command.
 */
#include <string.h>
#include "sim/world.h"
#include "contract.h"

static int seat_error(const GotaMatch *m, int32_t seat)
{
    if (seat < 0 || seat >= SEATS) return GOTA_ERR_INDEX;
    int slot = m->hero_slot[seat];
    return hero_seat_of_slot(m, slot) == seat ? GOTA_OK : GOTA_ERR_INDEX;
}

int gota_contract_info(GotaContractInfo *out)
{
    if (!out) return GOTA_ERR_NULL;
    memset(out, 0, sizeof *out);
    out->version = CONTRACT_VERSION;
    out->obs_size = OBS_SIZE;
    out->mask_size = MASK_SIZE;
    out->mask_flat_size = MASK_FLAT_SIZE;
    out->heads = CONTRACT_HEADS;
    out->logits = CONTRACT_LOGITS;
    out->verbs = CONTRACT_VERBS;
    out->targets = CONTRACT_TARGETS;
    out->points = CONTRACT_POINTS;
    out->abilities = CONTRACT_ABILITIES;
    out->items = CONTRACT_ITEMS;
    out->entries = contract_entries();
    out->hash = contract_hash();
    return GOTA_OK;
}

int gota_contract_entry(int32_t index, GotaContractEntry *out)
{
    if (!out) return GOTA_ERR_NULL;
    const ContractEntry *e = contract_entry(index);
    if (!e) return GOTA_ERR_INDEX;
    out->name = e->name;
    out->offset = e->offset;
    out->count = e->count;
    out->width = e->width;
    return GOTA_OK;
}

int gota_contract_find(const char *name, GotaContractEntry *out)
{
    if (!name || !out) return GOTA_ERR_NULL;
    return gota_contract_entry(contract_find(name), out);
}

const char *gota_contract_feature(int32_t index, int32_t feature)
{
    return contract_feature(index, feature);
}

int gota_contract_verb(int32_t verb, GotaContractVerb *out)
{
    if (!out) return GOTA_ERR_NULL;
    const GotaContractVerb *v = contract_verb(verb);
    if (!v) return GOTA_ERR_INDEX;
    *out = *v;
    return GOTA_OK;
}

int gota_match_observe(const GotaMatch *m, int32_t seat, float *obs, int32_t cap)
{
    if (!m || !obs) return GOTA_ERR_NULL;
    int err = seat_error(m, seat);
    if (err) return err;
    if (cap < OBS_SIZE) return GOTA_ERR_BUFFER;
    contract_observe(m, seat, obs);
    return GOTA_OK;
}

int gota_match_mask(const GotaMatch *m, int32_t seat, uint8_t *mask, int32_t cap)
{
    if (!m || !mask) return GOTA_ERR_NULL;
    int err = seat_error(m, seat);
    if (err) return err;
    if (cap < MASK_SIZE) return GOTA_ERR_BUFFER;
    contract_mask(m, seat, mask);
    return GOTA_OK;
}

int gota_match_mask_flat(const GotaMatch *m, int32_t seat, uint8_t *flat, int32_t cap)
{
    if (!m || !flat) return GOTA_ERR_NULL;
    int err = seat_error(m, seat);
    if (err) return err;
    if (cap < MASK_FLAT_SIZE) return GOTA_ERR_BUFFER;
    uint8_t mask[MASK_SIZE];
    contract_mask(m, seat, mask);
    contract_mask_flatten(mask, flat);
    return GOTA_OK;
}

int gota_match_decode(const GotaMatch *m, int32_t seat, const int32_t *heads, GotaCommand *out, int32_t *invalid)
{
    if (!m || !heads || !out) return GOTA_ERR_NULL;
    int err = seat_error(m, seat);
    if (err) return err;
    int r = contract_decode(m, seat, heads, out);
    if (invalid) *invalid = r == CONTRACT_DECODE_INVALID;
    return GOTA_OK;
}

int gota_match_act(GotaMatch *m, int32_t seat, const int32_t *heads, int32_t *action_error)
{
    if (!m || !heads) return GOTA_ERR_NULL;
    int err = seat_error(m, seat);
    if (err) return err;
    int answer = contract_act(m, seat, heads);
    if (action_error) *action_error = answer;
    return GOTA_OK;
}

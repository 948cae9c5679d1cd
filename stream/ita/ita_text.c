/*
 * ita_text.c - the text form of an Itanium cycle record: parsing one line, formatting
 * one record (docs/ita-stream-format.md, "The text form").  Comments, line ends and
 * repeat=N are the generic reader's (stream/text_line.c).
 *
 * A line is cycle fields, then zero or more slots each introduced by '|'.
 * Slot-flag keys come from include/common/ita/ita_regs.def (ita_sf_keys), so a flag added
 * there is a key here without an edit.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/pmu_num.h"
#include "common/pmu_text.h"
#include "ita_stream.h"
#include "stream/pmu_stream_codec.h"

void ita_sticky_init(ita_sticky *s)
{
    s->cpl = 3;
    s->is = 0;
    s->power = ITA_POWER_NORMAL;
    s->pid = 0;
}

/* ---- keys ------------------------------------------------------------------ */
enum cycle_key {
    CK_CPL, CK_IS, CK_POWER, CK_PID, CK_UP, CK_PP, CK_INTR, CK_RECIRC,
    CK_IF_ADDR, CK_IF_LAT, CK_IF_TLB, CK_IF_RAB, CK_EV, CK_N
};
static const char *const cycle_keys[CK_N] = {"cpl",     "is",     "power",  "pid",    "up",
                                             "pp",      "intr",   "recirc", "if_addr", "if_lat",
                                             "if_tlb",  "if_rab", "ev"};

enum slot_key { SK_IP, SK_S, SK_U, SK_ENC, SK_DA, SK_TGT, SK_LAT, SK_TLB, SK_EV, SK_NFIXED };
static const char *const slot_fixed_keys[SK_NFIXED] = {"ip", "s",   "u",   "enc", "da",
                                                       "tgt", "lat", "tlb", "ev"};

static int find_cycle_key(const char *tok, size_t n)
{
    return pmu_word_find(tok, n, cycle_keys, 0, CK_N);
}

/* Returns SK_* for fixed keys, SK_NFIXED + i for ita_sf_keys[i], or -1. */
static int find_slot_key(const char *tok, size_t n)
{
    int k = pmu_word_find(tok, n, slot_fixed_keys, 0, SK_NFIXED);
    if (k >= 0)
        return k;
    for (unsigned i = 0; i < ita_sf_nkeys; i++)
        if (pmu_word_is(tok, n, ita_sf_keys[i].key))
            return SK_NFIXED + (int)i;
    return -1;
}

/* ---- values ---------------------------------------------------------------- */
/* The nearest event name of either table to s[0..len), for a "did you mean"; NULL when none
 * is close (more than a third of the name differs). */
static const char *nearest_event(const char *s, size_t len)
{
    const char *best = NULL;
    const size_t allowed = 2 + len / 3;
    unsigned best_d = allowed < ~0u ? (unsigned)allowed + 1 : ~0u; /* only a nearer one is named */
    for (unsigned id = 0; id < ita_event_id_count() && best_d > 0; id++) {
        const char *name = ita_event_id_name(id);
        if (!name)
            continue;
        unsigned d = pmu_text_edit_distance_max(s, len, name, best_d - 1);
        if (d < best_d) {
            best_d = d;
            best = name;
        }
    }
    return best;
}

/* One NAME[:count] of an ev= list at item[0..n): appended to c->xev, attributed to `slot`. */
static int ev_item(const pmu_line *lc, const char *item, size_t n, unsigned slot, ita_cycle *c)
{
    const char *colon = memchr(item, ':', n);
    size_t nn = colon ? (size_t)(colon - item) : n;
    char name[96];
    uint64_t count = 1;
    if (nn == 0)
        return pmu_line_err(lc, item, "ev", 2, "expected an event name, found '%.*s'",
                            (int)(n > 40 ? 40 : n), item);
    snprintf(name, sizeof name, "%.*s", (int)(nn < sizeof name ? nn : sizeof name - 1), item);
    int id = nn < sizeof name ? ita_event_id_find(name) : -1;
    if (id < 0) {
        const char *near = nearest_event(item, nn);
        return pmu_line_err(lc, item, "ev", 2, "unknown event '%.*s'%s%s%s (expected a name of "
                            "include/common/ita/ita2_events.def or ita_events.def)",
                            (int)(nn > 60 ? 60 : nn), item, near ? ", did you mean '" : "",
                            near ? near : "", near ? "'?" : "");
    }
    if (colon &&
        pmu_line_num(lc, "ev", colon + 1, n - nn - 1, 1, UINT8_MAX, "a count 1..255", &count))
        return -1;
    if (c->nxev == ITA_MAX_XEV)
        return pmu_line_err(lc, item, "ev", 2, "more than %u general events in one cycle, "
                            "expected at most %u", ITA_MAX_XEV, ITA_MAX_XEV);
    ita_xev *x = &c->xev[c->nxev++];
    x->id = (uint16_t)id;
    x->count = (uint8_t)count;
    x->slot = (uint8_t)slot;
    return 0;
}

/* ev=NAME[:count][,NAME[:count]...] (docs/ita-stream-format.md, "General events"). */
static int ev_list(const pmu_line *lc, const char *val, size_t vn, unsigned slot, ita_cycle *c)
{
    const char *p = val, *end = val + vn;
    if (vn == 0)
        return pmu_line_err(lc, val, "ev", 2, "expected ev=NAME[:count][,NAME[:count]...]");
    for (;;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *item_end = comma ? comma : end;
        if (ev_item(lc, p, (size_t)(item_end - p), slot, c))
            return -1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

static int cycle_field(const pmu_line *lc, int k, const pmu_line_token *t, ita_sticky *st,
                       ita_cycle *c)
{
    const char *key = cycle_keys[k], *val = t->val;
    const size_t vn = t->vn;
    uint64_t v = 0;
    unsigned e = 0;
    if (pmu_line_flag_or_value(lc, t, key, k == CK_IF_RAB))
        return -1;
    if (k == CK_IF_RAB) {
        c->if_rab = 1;
        return 0;
    }
    switch (k) {
    case CK_CPL:
        if (pmu_line_num(lc, key, val, vn, 0, 3, "0..3", &v))
            return -1;
        st->cpl = (uint8_t)v;
        break;
    case CK_IS:
        if (pmu_line_enum(lc, key, val, vn, ita_is_names, 0, 2, "ia64 or ia32", &e))
            return -1;
        st->is = (uint8_t)e;
        break;
    case CK_POWER:
        if (pmu_line_enum(lc, key, val, vn, ita_power_names, 0, 4,
                          "normal, low_power, light_halt or halt", &e))
            return -1;
        st->power = (uint8_t)e;
        break;
    case CK_PID:
        if (pmu_line_num(lc, key, val, vn, 0, UINT16_MAX, "0..65535", &v))
            return -1;
        st->pid = (uint16_t)v;
        break;
    case CK_UP:
    case CK_PP:
        if (pmu_line_num(lc, key, val, vn, 0, 1, "0 or 1", &v))
            return -1;
        if (k == CK_UP) {
            c->up_we = 1;
            c->up = (uint8_t)v;
        } else {
            c->pp_we = 1;
            c->pp = (uint8_t)v;
        }
        break;
    case CK_INTR:
        /* "none" is the absence of the key, so it is not accepted as a value */
        if (pmu_line_enum(lc, key, val, vn, ita_intr_names, 1, 3, "entry or return", &e))
            return -1;
        c->intr = (uint8_t)e;
        break;
    case CK_RECIRC: {
        unsigned max = ita_event_table[ITA_EV_L2_FORCE_RECIRC_ANY].maxincr;
        char expect[64];
        snprintf(expect, sizeof expect, "0..%u (maxincr of L2_FORCE_RECIRC_ANY)", max);
        if (pmu_line_num(lc, key, val, vn, 0, max, expect, &v))
            return -1;
        c->recirc = (uint8_t)v;
        break;
    }
    case CK_IF_ADDR:
        if (pmu_line_num(lc, key, val, vn, 0, UINT64_MAX, "an address", &v))
            return -1;
        c->if_addr = v;
        break;
    case CK_IF_LAT:
        if (pmu_line_num(lc, key, val, vn, 0, UINT16_MAX, "0..65535", &v))
            return -1;
        c->if_lat = (uint16_t)v;
        break;
    case CK_IF_TLB:
        if (pmu_line_num(lc, key, val, vn, 0, ITA_TLB_FAULT, "0..3", &v))
            return -1;
        c->if_tlb = (uint8_t)v;
        break;
    case CK_EV:
        return ev_list(lc, val, vn, ITA_XEV_NO_SLOT, c);
    default:
        break;
    }
    return 0;
}

static int slot_field(const pmu_line *lc, int k, const pmu_line_token *t, ita_slot *s)
{
    const char *val = t->val;
    const size_t vn = t->vn;
    uint64_t v = 0;
    if (k >= SK_NFIXED) {
        const sf_key *f = &ita_sf_keys[k - SK_NFIXED];
        if (f->width == 1) {
            if (pmu_line_flag_or_value(lc, t, f->key, 1))
                return -1;
            v = 1;
        } else {
            unsigned max = (1u << f->width) - 1u;
            char expect[16];
            snprintf(expect, sizeof expect, "0..%u", max);
            if (!t->eq)
                return pmu_line_err(lc, t->tok, f->key, strlen(f->key), "expected %s=%s", f->key,
                                    expect);
            if (pmu_line_num(lc, f->key, val, vn, 0, max, expect, &v))
                return -1;
        }
        s->flags = (uint16_t)((s->flags & ~f->mask) | ((v << f->lsb) & f->mask));
        return 0;
    }
    const char *key = slot_fixed_keys[k];
    if (pmu_line_flag_or_value(lc, t, key, 0))
        return -1;
    switch (k) {
    case SK_IP:
        if (pmu_line_num(lc, key, val, vn, 0, UINT64_MAX, "an address", &v))
            return -1;
        s->ip = v;
        break;
    case SK_S:
        if (pmu_line_num(lc, key, val, vn, 0, 2, "0..2", &v))
            return -1;
        s->slot = (uint8_t)v;
        break;
    case SK_U:
        for (unsigned u = 0; u < 4; u++)
            if (vn == 1 && val[0] == ita_unit_letters[u]) {
                s->unit = (uint8_t)u;
                return 0;
            }
        return pmu_line_err(lc, val, key, 1, "expected M, I, F or B, found '%.*s'",
                            (int)(vn > 40 ? 40 : vn), val);
    case SK_ENC:
        if (pmu_line_num(lc, key, val, vn, 0, (1ull << 41) - 1, "a 41-bit encoding", &v))
            return -1;
        s->enc = v;
        break;
    case SK_DA:
        if (pmu_line_num(lc, key, val, vn, 0, UINT64_MAX, "an address", &v))
            return -1;
        s->daddr = v;
        break;
    case SK_TGT:
        if (pmu_line_num(lc, key, val, vn, 0, UINT64_MAX, "an address", &v))
            return -1;
        s->target = v;
        break;
    case SK_LAT:
        if (pmu_line_num(lc, key, val, vn, 0, UINT16_MAX, "0..65535", &v))
            return -1;
        s->lat = (uint16_t)v;
        break;
    case SK_TLB:
        if (pmu_line_num(lc, key, val, vn, 0, 3, "0..3", &v))
            return -1;
        s->tlb = (uint8_t)v;
        break;
    default:
        break;
    }
    return 0;
}

static void list_keys(char *buf, size_t size, int slot_keys)
{
    size_t n = 0;
    buf[0] = '\0';
#define ADD(str)                                                                \
    do {                                                                        \
        int k_ = snprintf(buf + n, size - n, "%s%s", n ? " " : "", (str));      \
        if (k_ > 0 && (size_t)k_ < size - n)                                    \
            n += (size_t)k_;                                                    \
    } while (0)
    if (slot_keys) {
        for (int i = 0; i < SK_NFIXED; i++)
            ADD(slot_fixed_keys[i]);
        for (unsigned i = 0; i < ita_sf_nkeys; i++)
            ADD(ita_sf_keys[i].key);
    } else {
        for (int i = 0; i < CK_N; i++)
            ADD(cycle_keys[i]);
    }
#undef ADD
}

/* What a line has seen so far: the keys of the cycle part and of the current slot. */
typedef struct parse_state {
    ita_sticky st;
    uint64_t cycle_seen;
    uint64_t slot_seen;
    ita_slot *slot; /* the current slot, NULL in the cycle part */
} parse_state;

/* One key[=value] token (its key not empty). */
static int parse_token(const pmu_line *lc, parse_state *ps, const pmu_line_token *t,
                       ita_cycle *c)
{
    const char *tok = t->tok;
    const size_t kn = t->kn;
    char keys[256];
    if (!ps->slot) {
        int k = find_cycle_key(tok, kn);
        if (k < 0) {
            list_keys(keys, sizeof keys, 0);
            if (find_slot_key(tok, kn) >= 0)
                return pmu_line_err(lc, tok, tok, kn,
                                    "a slot field before the first '|' (slots start with '|')");
            return pmu_line_err(lc, tok, tok, kn, "unknown key, expected one of: %s", keys);
        }
        if (pmu_line_once(lc, t, &ps->cycle_seen, (unsigned)k))
            return -1;
        return cycle_field(lc, k, t, &ps->st, c);
    }
    int k = find_slot_key(tok, kn);
    if (k < 0) {
        list_keys(keys, sizeof keys, 1);
        if (find_cycle_key(tok, kn) >= 0)
            return pmu_line_err(lc, tok, tok, kn, "a cycle field inside slot %u (cycle fields "
                                "come before the first '|')", c->nslots);
        return pmu_line_err(lc, tok, tok, kn, "unknown slot key, expected one of: %s", keys);
    }
    if (ps->slot_seen & (1ull << k))
        return pmu_line_err(lc, tok, tok, kn, "given twice in slot %u", c->nslots);
    ps->slot_seen |= 1ull << k;
    if (k == SK_EV) {
        if (!t->eq)
            return pmu_line_err(lc, tok, tok, kn, "expected ev=NAME[:count][,NAME[:count]...]");
        return ev_list(lc, t->val, t->vn, c->nslots - 1u, c);
    }
    return slot_field(lc, k, t, ps->slot);
}

int ita_parse_line(void *state, const char *line, size_t len, const char *where, void *rec,
                   pmu_err *err)
{
    ita_state *state_ = state;
    ita_cycle *c = rec;
    pmu_line lc = {line, where, err};
    const char *p = line, *end = line + len;
    parse_state ps = {state_->sticky, 0, 0, NULL};
    pmu_line_token t;
    int more;
    memset(c, 0, sizeof *c);
    while ((more = pmu_line_next(&lc, &p, end, '|', &t)) > 0) {
        if (*t.tok == '|') {
            if (c->nslots == ITA_MAX_SLOTS)
                return pmu_line_err(&lc, t.tok, "|", 1, "more than %u slots, expected at most %u "
                                    "per cycle", ITA_MAX_SLOTS, ITA_MAX_SLOTS);
            ps.slot = &c->slot[c->nslots++];
            ps.slot->unit = ITA_UNIT_M; /* defaults: s=0 u=M, everything else 0 */
            ps.slot_seen = 0;
            continue;
        }
        if (t.kn == 0)
            return pmu_line_err(&lc, t.tok, t.tok, t.n, "expected key=value");
        if (parse_token(&lc, &ps, &t, c))
            return -1;
    }
    if (more < 0)
        return -1;
    c->cpl = ps.st.cpl;
    c->is = ps.st.is;
    c->power = ps.st.power;
    c->pid = ps.st.pid;
    if (ita_cycle_validate(c, where, err))
        return -1;
    state_->sticky = ps.st;
    return 0;
}

/* ---- formatting -------------------------------------------------------------- */

/* " ev=NAME[:count],..." of the general events attributed to `slot` (ITA_XEV_NO_SLOT: the
 * unattributed ones), in record order; nothing when there are none. */
static void out_events(pmu_outbuf *o, const ita_cycle *c, unsigned slot)
{
    unsigned k = 0;
    for (unsigned x = 0; x < c->nxev && x < ITA_MAX_XEV; x++) {
        const ita_xev *e = &c->xev[x];
        if (e->slot != slot)
            continue;
        const char *name = ita_event_id_name(e->id);
        if (k++)
            pmu_out_add(o, ",");
        else
            pmu_out_add(o, "%sev=", PMU_OUT_SEP(o));
        if (name)
            pmu_out_add(o, "%s", name);
        else
            pmu_out_add(o, "#%u", e->id); /* only an invalid record has an unused id */
        if (e->count != 1)
            pmu_out_add(o, ":%u", e->count);
    }
}

/* The text of a record: with `prev` NULL every sticky field, otherwise only those that
 * differ from *prev. */
static size_t text_format(const ita_cycle *c, const ita_sticky *prev, char *buf, size_t size)
{
    pmu_outbuf o = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    if (!prev || prev->cpl != c->cpl)
        pmu_out_add(&o, "%scpl=%u", PMU_OUT_SEP(&o), c->cpl);
    if (!prev || prev->is != c->is)
        pmu_out_name(&o, "is", c->is, ita_is_names, 2);
    if (!prev || prev->power != c->power)
        pmu_out_name(&o, "power", c->power, ita_power_names, 4);
    if (!prev || prev->pid != c->pid)
        pmu_out_add(&o, "%spid=%u", PMU_OUT_SEP(&o), c->pid);
    if (c->up_we)
        pmu_out_add(&o, "%sup=%u", PMU_OUT_SEP(&o), c->up);
    if (c->pp_we)
        pmu_out_add(&o, "%spp=%u", PMU_OUT_SEP(&o), c->pp);
    if (c->intr)
        pmu_out_name(&o, "intr", c->intr, ita_intr_names, 3);
    if (c->recirc)
        pmu_out_add(&o, "%srecirc=%u", PMU_OUT_SEP(&o), c->recirc);
    if (c->if_addr)
        pmu_out_add(&o, "%sif_addr=0x%" PRIx64, PMU_OUT_SEP(&o), c->if_addr);
    if (c->if_lat)
        pmu_out_add(&o, "%sif_lat=%u", PMU_OUT_SEP(&o), c->if_lat);
    if (c->if_tlb)
        pmu_out_add(&o, "%sif_tlb=%u", PMU_OUT_SEP(&o), c->if_tlb);
    if (c->if_rab)
        pmu_out_add(&o, "%sif_rab", PMU_OUT_SEP(&o)); /* a flag: 1 (validation refuses other values) */
    out_events(&o, c, ITA_XEV_NO_SLOT);
    if (o.len == 0 && c->nslots == 0)
        pmu_out_add(&o, "cpl=%u", c->cpl); /* an empty line would be skipped as blank */

    unsigned n = c->nslots <= ITA_MAX_SLOTS ? c->nslots : ITA_MAX_SLOTS;
    for (unsigned i = 0; i < n; i++) {
        const ita_slot *s = &c->slot[i];
        pmu_out_add(&o, "%s| ip=0x%" PRIx64 " s=%u", PMU_OUT_SEP(&o), s->ip, s->slot);
        if (s->unit < 4)
            pmu_out_add(&o, " u=%c", ita_unit_letters[s->unit]);
        else
            pmu_out_add(&o, " u=%u", s->unit);
        if (s->enc)
            pmu_out_add(&o, " enc=0x%" PRIx64, s->enc);
        if (s->daddr)
            pmu_out_add(&o, " da=0x%" PRIx64, s->daddr);
        if (s->target)
            pmu_out_add(&o, " tgt=0x%" PRIx64, s->target);
        if (s->lat)
            pmu_out_add(&o, " lat=%u", s->lat);
        if (s->tlb)
            pmu_out_add(&o, " tlb=%u", s->tlb);
        for (unsigned f = 0; f < ita_sf_nkeys; f++) {
            unsigned v = (unsigned)(s->flags & ita_sf_keys[f].mask) >> ita_sf_keys[f].lsb;
            if (!v)
                continue;
            if (ita_sf_keys[f].width == 1)
                pmu_out_add(&o, " %s", ita_sf_keys[f].key);
            else
                pmu_out_add(&o, " %s=%u", ita_sf_keys[f].key, v);
        }
        out_events(&o, c, i);
        uint16_t undefined = (uint16_t)(s->flags & ~ita_sf_defined_mask());
        if (undefined)
            pmu_out_add(&o, " flags=0x%x", undefined); /* only an invalid record has these */
    }
    /* Only an invalid record attributes an event to a slot it does not have. */
    for (unsigned x = 0; x < c->nxev && x < ITA_MAX_XEV; x++)
        if (c->xev[x].slot != ITA_XEV_NO_SLOT && c->xev[x].slot >= n)
            pmu_out_add(&o, "%sxev=%u@slot%u", PMU_OUT_SEP(&o), c->xev[x].id, c->xev[x].slot + 1u);
    return o.len;
}

size_t ita_format_line(void *state, const void *rec, char *buf, size_t size)
{
    ita_state *st = state;
    const ita_cycle *c = rec;
    size_t need = text_format(c, &st->sticky, buf, size);
    if (need < size) {
        st->sticky.cpl = c->cpl;
        st->sticky.is = c->is;
        st->sticky.power = c->power;
        st->sticky.pid = c->pid;
    }
    return need;
}

size_t ita_format(const void *rec, char *buf, size_t size)
{
    return text_format(rec, NULL, buf, size);
}

size_t ita_cycle_format(const ita_cycle *c, char *buf, size_t size)
{
    size_t need = text_format(c, NULL, buf, size);
    if (size == 0)
        return 0;
    return need < size ? need : size - 1;
}

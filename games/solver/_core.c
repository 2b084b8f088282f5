/* The solver's compiled search core: games.solver._core.
 *
 * A second implementation of the rules engine's move generation (games/rules/variant.py and
 * the game modules' hooks), of the solver's canonical key, safe moves and evaluation
 * (games/solver/tactics.py, evaluation.py) and of its two search orders (search.py), on a
 * packed position. games/solver/core.py describes each game to it (``Rules``) from the
 * engine's own declarations and converts positions; tests/solver/test_core_differential.py
 * checks it against the engine and the Python search position by position.
 *
 * A packed position is bytes: the base rank (0: none), then per pile in the variant's
 * pile order its card count, its face-down count and its cards bottom to top (0..51).
 * The transposition table keeps every canonical key in full (not a bare hash), so a hash
 * collision can never skip a position. The search releases the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { K_STOCK, K_WASTE, K_RESERVE, K_DISCARD, K_FOUNDATION, K_TABLEAU, K_COUNT };
enum { S_ANY, S_ALTERNATE, S_SAME };
enum { START_NONE, START_ACE, START_BASE };
enum { DEAL_NONE, DEAL_TO_WASTE, DEAL_TO_PILES };
enum { SETTLE_TURN_UP, SETTLE_REFILL, SETTLE_RUNS };
enum { SAFE_AWAY, SAFE_ALTERNATE, SAFE_ANY_SUIT };

#define MAXP 24
#define MAXC 104
#define MAXMOVES 1024
#define MAXKEY (2 + 2 * MAXP + MAXC)
#define RUN 13
/* Cards are copied 16 bytes at a time (copy_cards), which may read and write up to 15 bytes
 * past a pile's cards: every buffer they are copied into or out of has that much to spare. */
#define SLACK 16
#define ALL_CARDS ((1ULL << 52) - 1)

static inline int rank_of(int c) { return c % 13 + 1; }
static inline int suit_of(int c) { return c / 13; }
static inline int red_of(int c) { int s = c / 13; return s == 1 || s == 2; }

typedef struct {
    int present, step, suits, wrap;
} BuildRule;

static int next_rank(const BuildRule *b, int rank) {
    int nxt = rank + b->step;
    if (nxt >= 1 && nxt <= 13) return nxt;
    return b->wrap ? ((nxt - 1) % 13 + 13) % 13 + 1 : 0;
}

static int build_fits(const BuildRule *b, int card, int onto) {
    if (!b->present) return 0;
    if (next_rank(b, rank_of(onto)) != rank_of(card)) return 0;
    if (b->suits == S_SAME && suit_of(card) != suit_of(onto)) return 0;
    if (b->suits == S_ALTERNATE && red_of(card) == red_of(onto)) return 0;
    return 1;
}

typedef struct {
    int np;
    uint8_t kind[MAXP];
    uint8_t route[K_COUNT][K_COUNT];
    BuildRule tab, grp, fnd;
    int fstart;
    uint8_t complete_rank[MAXP]; /* 0: complete at 13 cards */
    int deal_count, deal_mode, settle_mode;
    int stock, waste, reserve, discard;
    int sort_tableau_always, sort_foundations, refills, sets_base;
    /* Sound pruning (tactics.py): cards keyed by rank and colour only; the discard out of the
     * key; the stronger safe-home rule (SAFE_*). */
    int key_colour, key_discard, safe_rule;
    /* Deals folded (tactics.FOLDS_DEALS): just after a deal only another deal, a move from
     * the waste or one that empties a pile the stock refills is tried; a search's key tells
     * positions just dealt apart. */
    int fold_deals;
    /* A reserve that cannot go home in its order is a dead end (deadends.py): such a
     * position is counted but never kept. */
    int dead_reserve;
    uint8_t keycard[52];
    uint8_t tfits[52][52], gfits[52][52], ffits[52][52];
    uint64_t follows_bits[52]; /* the cards ffits puts on each card, one bit a card */
    uint64_t tfits_bits[52];   /* the cards tfits puts on each card */
    uint64_t rank_bits[14];    /* the four cards of each rank */
    int ntab, tab_idx[MAXP];
    int nfnd, fnd_idx[MAXP];
    int nfixed, fixed_idx[MAXP];
    int nsrc, src_idx[MAXP];
    int ntgt, tgt_idx[MAXP];
    int naway, away_idx[MAXP];
    int nhome, home_idx[MAXP];
} Rules;

typedef struct {
    int base;
    uint8_t n[MAXP], down[MAXP];
    uint8_t c[MAXP][MAXC];
    uint8_t slack[SLACK]; /* what copy_cards may write past the last pile's cards */
} Pos;

typedef struct {
    uint8_t s, t, count; /* s == 255: the stock action */
} Move;

#define DEAL_S 255

/* -- positions ------------------------------------------------------------------------ */

/* n cards from src to dst in 16-byte blocks (a few cards a pile: cheaper than memcpy's
 * general copy), so up to 15 bytes more on either side: see SLACK. */
static inline void copy_cards(uint8_t *dst, const uint8_t *src, int n) {
    for (int j = 0; j < n; j += 16) memcpy(dst + j, src + j, 16);
}

static int unpack(const Rules *r, const uint8_t *b, Py_ssize_t len, Pos *p) {
    Py_ssize_t k = 1;
    if (len < 1) return -1;
    p->base = b[0];
    for (int i = 0; i < r->np; i++) {
        if (k + 2 > len) return -1;
        int n = b[k], d = b[k + 1];
        k += 2;
        if (n > MAXC || d > n || k + n > len) return -1;
        p->n[i] = (uint8_t)n;
        p->down[i] = (uint8_t)d;
        for (int j = 0; j < n; j++) {
            if (b[k + j] >= 52) return -1;
        }
        memcpy(p->c[i], b + k, n);
        k += n;
    }
    return k == len ? 0 : -1;
}

static int pack(const Rules *r, const Pos *p, uint8_t *out) {
    int k = 0;
    out[k++] = (uint8_t)p->base;
    for (int i = 0; i < r->np; i++) {
        out[k++] = p->n[i];
        out[k++] = p->down[i];
        copy_cards(out + k, p->c[i], p->n[i]);
        k += p->n[i];
    }
    return k;
}

/* Piles sort by card count, then face-down count, then cards bottom to top as bytes. A
 * pile's first six bytes of that, as one number, settle most comparisons at once; piles of
 * the same count whose numbers are equal compare the rest of their cards. */
static inline uint64_t pile_prefix(const Pos *p, int i) {
    int n = p->n[i];
    uint64_t cards;
    memcpy(&cards, p->c[i], 8); /* within the pile's MAXC bytes; past n masked off below */
    cards = __builtin_bswap64(cards) >> 16; /* the first six, the bottom card highest */
    if (n < 6) cards &= ~((1ULL << (8 * (6 - n))) - 1);
    return (uint64_t)n << 56 | (uint64_t)p->down[i] << 48 | cards;
}

/* Sorts idx[0..n) by pile, stably (an insertion sort: a handful of piles). */
static void sort_piles(const Pos *p, int *idx, int n) {
    uint64_t pre[MAXP];
    for (int i = 0; i < n; i++) pre[i] = pile_prefix(p, idx[i]);
    for (int i = 1; i < n; i++) {
        int v = idx[i], j = i - 1;
        uint64_t pv = pre[i];
        while (j >= 0 && (pre[j] > pv ||
                          (pre[j] == pv && p->n[v] > 6 &&
                           memcmp(p->c[idx[j]] + 6, p->c[v] + 6, p->n[v] - 6) > 0))) {
            idx[j + 1] = idx[j];
            pre[j + 1] = pre[j];
            j--;
        }
        idx[j + 1] = v;
        pre[j + 1] = pv;
    }
}

static int put_pile(const Pos *p, int i, uint8_t *out, int k) {
    out[k++] = p->n[i];
    out[k++] = p->down[i];
    copy_cards(out + k, p->c[i], p->n[i]);
    return k + p->n[i];
}

/* The canonical key (tactics.Tactics.key): base rank, the fixed piles in order, the tableau
 * piles (sorted where they are interchangeable), the foundations sorted where they are. */
static int canonical_key(const Rules *r, const Pos *p, uint8_t *out) {
    int k = 0, idx[MAXP];
    Pos mapped;
    if (r->key_colour) {
        mapped.base = p->base;
        for (int i = 0; i < r->np; i++) {
            mapped.n[i] = p->n[i];
            mapped.down[i] = p->down[i];
            for (int j = 0; j < p->n[i]; j++) mapped.c[i][j] = r->keycard[p->c[i][j]];
        }
        p = &mapped;
    }
    out[k++] = (uint8_t)p->base;
    for (int i = 0; i < r->nfixed; i++) {
        if (r->key_discard || r->kind[r->fixed_idx[i]] != K_DISCARD)
            k = put_pile(p, r->fixed_idx[i], out, k);
    }
    memcpy(idx, r->tab_idx, sizeof(int) * r->ntab);
    if (r->sort_tableau_always || (r->stock >= 0 && p->n[r->stock] == 0))
        sort_piles(p, idx, r->ntab);
    for (int i = 0; i < r->ntab; i++) k = put_pile(p, idx[i], out, k);
    if (r->sort_foundations) {
        memcpy(idx, r->fnd_idx, sizeof(int) * r->nfnd);
        sort_piles(p, idx, r->nfnd);
        for (int i = 0; i < r->nfnd; i++) k = put_pile(p, idx[i], out, k);
    }
    return k;
}

/* -- rules ---------------------------------------------------------------------------- */

/* How many top cards of pile s (at most limit) run under the group's rule (r->gfits, which
 * build_fits filled: nothing fits when the game has no group). */
static int run_length(const Rules *r, const Pos *p, int s, int limit) {
    int n = p->n[s];
    const uint8_t *c = p->c[s];
    int len;
    len = (n && limit) ? 1 : 0;
    while (len < limit && n - len - 1 >= 0 && r->gfits[c[n - len]][c[n - len - 1]])
        len++;
    return len;
}

static int foundation_complete(const Rules *r, const Pos *p, int t) {
    if (r->complete_rank[t]) return rank_of(p->c[t][p->n[t] - 1]) == r->complete_rank[t];
    return p->n[t] >= 13;
}

static int legal(const Rules *r, const Pos *p, int s, int t, int count) {
    if (s == t) return 0;
    int ks = r->kind[s], kt = r->kind[t];
    if (!r->route[ks][kt]) return 0;
    int n = p->n[s];
    if (!n) return 0;
    if (count > 1 && (!r->grp.present || kt != K_TABLEAU || ks != K_TABLEAU)) return 0;
    if (count > n - p->down[s]) return 0;
    if (count > 1 && run_length(r, p, s, count) < count) return 0;
    int card = p->c[s][n - count];
    int nt = p->n[t];
    if (kt == K_TABLEAU) {
        if (nt) return r->tfits[card][p->c[t][nt - 1]];
        return !(count == n && ks == K_TABLEAU);
    }
    if (!nt) {
        if (r->fstart == START_ACE) return rank_of(card) == 1;
        if (r->fstart == START_BASE) return p->base == 0 || p->base == rank_of(card);
        return 0;
    }
    if (foundation_complete(r, p, t)) return 0;
    return r->ffits[card][p->c[t][nt - 1]];
}

static int is_open_target(const Rules *r, const Pos *p, int t) {
    if (p->n[t]) return 0;
    if (r->kind[t] == K_TABLEAU) return 1;
    return r->fstart == START_BASE && p->base == 0;
}

static int deal_allowed(const Rules *r, const Pos *p) {
    if (r->deal_mode == DEAL_NONE || r->stock < 0 || !p->n[r->stock]) return 0;
    if (r->deal_mode == DEAL_TO_PILES) {
        int all = 1, total = 0;
        for (int i = 0; i < r->ntab; i++) {
            int n = p->n[r->tab_idx[i]];
            if (!n) all = 0;
            total += n;
        }
        if (!all && total >= r->ntab) return 0;
    }
    return 1;
}

/* Variant.legal_moves: per source pile, per count, the targets that want the card's rank
 * (pile order), then the open ones (pile order); the stock action last. The same moves as
 * legal() on every (source, target, count), without asking it each time: what each target
 * takes is worked out once a position, as legal() judges it (the cards that fit on its top
 * card, a rank on an empty foundation, any card), a count at most the run run_length finds is
 * a run, and counts above 1 only arise on a tableau pile with a group. */
static int legal_moves(const Rules *r, const Pos *p, Move *out) {
    int order[MAXP], norder = 0;
    uint64_t takes[MAXP]; /* the cards target t takes, one bit a card */
    uint8_t empty_tableau[MAXP];
    for (int open = 0; open < 2; open++) {
        for (int ti = 0; ti < r->ntgt; ti++) {
            int t = r->tgt_idx[ti];
            if (is_open_target(r, p, t) == open) order[norder++] = t;
        }
    }
    for (int ti = 0; ti < r->ntgt; ti++) {
        int t = r->tgt_idx[ti], nt = p->n[t];
        empty_tableau[t] = 0;
        if (r->kind[t] == K_TABLEAU) {
            /* an empty one takes any card but a whole tableau pile */
            empty_tableau[t] = !nt;
            takes[t] = nt ? r->tfits_bits[p->c[t][nt - 1]] : ALL_CARDS;
        } else if (!nt) {
            takes[t] = 0;
            if (r->fstart == START_ACE)
                takes[t] = r->rank_bits[1];
            else if (r->fstart == START_BASE)
                takes[t] = p->base == 0 ? ALL_CARDS : r->rank_bits[p->base];
        } else {
            takes[t] = foundation_complete(r, p, t) ? 0 : r->follows_bits[p->c[t][nt - 1]];
        }
    }
    int k = 0;
    for (int si = 0; si < r->nsrc; si++) {
        int s = r->src_idx[si], n = p->n[s];
        if (!n) continue;
        int ks = r->kind[s], available = n - p->down[s];
        int movable = 1;
        if (r->grp.present && ks == K_TABLEAU) movable = run_length(r, p, s, available);
        for (int count = 1; count <= movable && count <= available; count++) {
            int card = p->c[s][n - count];
            for (int oi = 0; oi < norder; oi++) {
                int t = order[oi], kt = r->kind[t];
                if (!(takes[t] >> card & 1) || t == s || !r->route[ks][kt]) continue;
                if (count > 1 && kt != K_TABLEAU) continue;
                if (empty_tableau[t] && count == n && ks == K_TABLEAU) continue;
                if (k < MAXMOVES) {
                    out[k].s = (uint8_t)s;
                    out[k].t = (uint8_t)t;
                    out[k].count = (uint8_t)count;
                    k++;
                }
            }
        }
    }
    if (deal_allowed(r, p) && k < MAXMOVES) {
        out[k].s = DEAL_S;
        out[k].t = DEAL_S;
        out[k].count = 0;
        k++;
    }
    return k;
}

static void turn_up(Pos *p, int i) {
    if (p->down[i] && p->down[i] == p->n[i]) p->down[i]--;
}

static void remove_run(const Rules *r, Pos *p, int i) {
    int n = p->n[i];
    if (n - p->down[i] >= RUN && rank_of(p->c[i][n - 1]) == 1 &&
        run_length(r, p, i, RUN) == RUN) {
        int d = r->discard;
        memcpy(p->c[d] + p->n[d], p->c[i] + n - RUN, RUN);
        p->n[d] += RUN;
        p->down[d] = 0;
        p->n[i] -= RUN;
        turn_up(p, i);
    }
}

/* Variant._carry_out and the games' hooks, in place. */
static void apply_move(const Rules *r, Pos *p, Move m) {
    if (m.s == DEAL_S) {
        int st = r->stock, n = p->n[st];
        if (r->deal_mode == DEAL_TO_WASTE) {
            int left = n - r->deal_count;
            if (left < 0) left = 0;
            int w = r->waste;
            for (int j = n - 1; j >= left; j--) p->c[w][p->n[w]++] = p->c[st][j];
            p->down[w] = 0;
            p->n[st] = (uint8_t)left;
            p->down[st] = (uint8_t)left;
        } else {
            int any = 0;
            for (int i = 0; i < r->ntab; i++) any |= p->n[r->tab_idx[i]] != 0;
            for (int i = 0; i < r->ntab; i++) {
                int t = r->tab_idx[i];
                if (any && !p->n[t]) continue;
                if (!p->n[st]) break;
                p->c[t][p->n[t]++] = p->c[st][--p->n[st]];
            }
            p->down[st] = p->n[st];
            for (int i = 0; i < r->ntab; i++) remove_run(r, p, r->tab_idx[i]);
        }
        return;
    }
    int s = m.s, t = m.t, count = m.count;
    memcpy(p->c[t] + p->n[t], p->c[s] + p->n[s] - count, count);
    p->n[t] += count;
    p->n[s] -= count;
    if (p->base == 0 && r->kind[t] == K_FOUNDATION && r->fstart == START_BASE)
        p->base = rank_of(p->c[t][p->n[t] - count]);
    if (r->settle_mode == SETTLE_TURN_UP) {
        turn_up(p, s);
    } else if (r->settle_mode == SETTLE_REFILL) {
        if (r->kind[s] == K_TABLEAU && !p->n[s]) {
            int feeders[2] = {r->stock, r->waste};
            for (int f = 0; f < 2; f++) {
                int fd = feeders[f];
                if (fd >= 0 && p->n[fd]) {
                    p->c[s][0] = p->c[fd][--p->n[fd]];
                    p->n[s] = 1;
                    p->down[s] = 0;
                    p->down[fd] = fd == r->stock ? p->n[fd] : 0;
                    break;
                }
            }
        }
    } else {
        turn_up(p, s);
        remove_run(r, p, t);
    }
}

static int is_won(const Rules *r, const Pos *p) {
    for (int i = 0; i < r->naway; i++)
        if (p->n[r->away_idx[i]]) return 0;
    return 1;
}

/* -- tactics -------------------------------------------------------------------------- */

/* tactics.Tactics._stronger_safe: per suit, how many cards its foundation holds; then
 * SAFE_ALTERNATE (tableau down in alternating colours, foundations by suit from the Ace): a
 * card of rank r whose two suits of the other colour are home to r - 2 and whose other suit
 * of its colour to r - 3; SAFE_ANY_SUIT (tableau down in any suit, foundations by suit from
 * the base rank, around the corner): a card p places above the base, p >= 2, when every
 * suit is home to p - 2. */
static int stronger_safe(const Rules *r, const Pos *p, int card) {
    int home[4] = {0, 0, 0, 0};
    for (int f = 0; f < r->nfnd; f++) {
        int i = r->fnd_idx[f];
        if (p->n[i]) home[suit_of(p->c[i][0])] = p->n[i];
    }
    if (r->safe_rule == SAFE_ALTERNATE) {
        int rank = rank_of(card), suit = suit_of(card);
        for (int other = 0; other < 4; other++) {
            if (other == suit) continue;
            int need = red_of(other * 13) == red_of(card) ? rank - 3 : rank - 2;
            if (home[other] < need) return 0;
        }
        return 1;
    }
    if (p->base == 0) return 0;
    int place = ((rank_of(card) - p->base) % 13 + 13) % 13;
    if (place < 2) return 0;
    for (int other = 0; other < 4; other++)
        if (home[other] < place - 1) return 0;
    return 1;
}

static int safe_home(const Rules *r, const Pos *p, Move m) {
    if (r->sets_base && p->base == 0) return 0;
    int s = m.s;
    if (r->refills && r->kind[s] == K_TABLEAU && p->n[s] == 1 &&
        ((r->stock >= 0 && p->n[r->stock]) || (r->waste >= 0 && p->n[r->waste])))
        return 0;
    int top = p->c[s][p->n[s] - 1];
    if (r->safe_rule != SAFE_AWAY && stronger_safe(r, p, top)) return 1;
    for (int a = 0; a < r->naway; a++) {
        int i = r->away_idx[a];
        for (int j = 0; j < p->n[i]; j++)
            if (r->tfits[p->c[i][j]][top]) return 0;
    }
    return 1;
}

static int safe_move(const Rules *r, const Pos *p, const Move *moves, int n) {
    for (int i = 0; i < n; i++) {
        if (moves[i].s != DEAL_S && r->kind[moves[i].t] == K_FOUNDATION &&
            safe_home(r, p, moves[i]))
            return i;
    }
    return -1;
}

/* Tactics.distinct: the moves less those that only repeat an earlier one on another pile
 * identical to its own (piles the key sorts, equal as the key knows their cards): per pile,
 * the first identical pile of its sorted group; a move is kept when its source and target
 * are each the first of their kind. */
static int same_pile(const Rules *r, const Pos *p, int a, int b) {
    if (p->n[a] != p->n[b] || p->down[a] != p->down[b]) return 0;
    for (int j = 0; j < p->n[a]; j++)
        if (r->keycard[p->c[a][j]] != r->keycard[p->c[b][j]]) return 0;
    return 1;
}

static void first_of_group(const Rules *r, const Pos *p, const int *idx, int n, int *first) {
    for (int a = 0; a < n; a++) {
        int i = idx[a];
        for (int b = 0; b < a; b++) {
            if (first[idx[b]] == idx[b] && same_pile(r, p, idx[b], i)) {
                first[i] = idx[b];
                break;
            }
        }
    }
}

static int distinct(const Rules *r, const Pos *p, Move *moves, int n) {
    int sort_tab = r->sort_tableau_always || (r->stock >= 0 && p->n[r->stock] == 0);
    if (!sort_tab && !r->sort_foundations) return n;
    int first[MAXP];
    for (int i = 0; i < r->np; i++) first[i] = i;
    if (sort_tab) first_of_group(r, p, r->tab_idx, r->ntab, first);
    if (r->sort_foundations) first_of_group(r, p, r->fnd_idx, r->nfnd, first);
    int k = 0;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (m.s == DEAL_S || (first[m.s] == m.s && first[m.t] == m.t)) moves[k++] = m;
    }
    return k;
}

/* Tactics.productive (Grounds for Divorce's narrow first pass). */
static int productive(const Rules *r, const Pos *p, Move *moves, int n) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int keep = 0;
        if (m.s == DEAL_S) {
            keep = 1;
        } else {
            int s = m.s, t = m.t, count = m.count, ns = p->n[s];
            int face_up = ns - p->down[s];
            int bottom = p->c[s][ns - count];
            if (count == face_up || (count == ns && p->n[t])) {
                keep = 1;
            } else {
                int under = p->c[s][ns - count - 1];
                int same_suit_link =
                    suit_of(under) == suit_of(bottom) && r->tfits[bottom][under];
                if (p->n[t]) {
                    int top = p->c[t][p->n[t] - 1];
                    keep = suit_of(top) == suit_of(bottom) || !r->tfits[bottom][under];
                } else {
                    keep = !same_suit_link;
                }
            }
        }
        if (keep) moves[k++] = m;
    }
    return k;
}

/* -- evaluation ----------------------------------------------------------------------- */

typedef struct {
    double home, link, runs, face_down, buried, empty, waste, reserve, stock;
    /* Every weight a whole number (as every game's are): then so is every term and every
     * partial sum of the score, each exact in a double whatever the order of the sums, and
     * evaluate counts in integers (the same score, sooner). */
    int whole;
    int64_t ihome, ilink, iruns, iface_down, iburied, iempty, iwaste, ireserve, istock;
} Weights;

/* The cards a foundation takes next, one bit a card (Evaluator.wanted). */
static uint64_t wanted_cards(const Rules *r, const Pos *p) {
    uint64_t wanted = 0;
    int start = r->fstart == START_ACE ? 1 : r->fstart == START_BASE ? p->base : 0;
    for (int f = 0; f < r->nfnd; f++) {
        int i = r->fnd_idx[f];
        if (p->n[i]) {
            if (!foundation_complete(r, p, i)) wanted |= r->follows_bits[p->c[i][p->n[i] - 1]];
        } else if (start) {
            for (int suit = 0; suit < 4; suit++) wanted |= 1ULL << (suit * 13 + start - 1);
        }
    }
    return wanted;
}

/* evaluate with whole weights: the same terms, counted in integers. */
static int64_t evaluate_whole(const Rules *r, const Weights *w, const Pos *p) {
    int64_t home = 0;
    for (int i = 0; i < r->nhome; i++) home += p->n[r->home_idx[i]];
    int64_t total = w->ihome * home;
    if (r->waste >= 0) total -= w->iwaste * p->n[r->waste];
    if (r->reserve >= 0) total -= w->ireserve * p->n[r->reserve];
    if (r->stock >= 0) total += w->istock * p->n[r->stock];
    uint64_t wanted = w->iburied ? wanted_cards(r, p) : 0;
    int64_t empty = 0, down_total = 0, links = 0, squares = 0, buried = 0;
    for (int ti = 0; ti < r->ntab; ti++) {
        int i = r->tab_idx[ti], n = p->n[i], down = p->down[i];
        const uint8_t *c = p->c[i];
        if (!n) {
            empty++;
            continue;
        }
        down_total += down;
        int run = 1;
        for (int j = down + 1; j < n; j++) {
            if (r->tfits[c[j]][c[j - 1]]) {
                links++;
                if (r->gfits[c[j]][c[j - 1]]) {
                    run++;
                    continue;
                }
            }
            squares += run * run;
            run = 1;
        }
        squares += run * run;
        if (wanted) {
            for (int j = 0; j < n; j++)
                if (wanted >> c[j] & 1) buried += n - 1 - j;
        }
    }
    return total + w->iempty * empty - w->iface_down * down_total + w->ilink * links +
           w->iruns * squares - w->iburied * buried;
}

static double evaluate(const Rules *r, const Weights *w, const Pos *p) {
    if (w->whole) return (double)evaluate_whole(r, w, p);
    int home = 0;
    for (int i = 0; i < r->nhome; i++) home += p->n[r->home_idx[i]];
    double total = w->home * home;
    if (w->waste != 0 && r->waste >= 0) total -= w->waste * p->n[r->waste];
    if (w->reserve != 0 && r->reserve >= 0) total -= w->reserve * p->n[r->reserve];
    if (w->stock != 0 && r->stock >= 0) total += w->stock * p->n[r->stock];
    uint64_t wanted = w->buried != 0 ? wanted_cards(r, p) : 0;
    for (int ti = 0; ti < r->ntab; ti++) {
        int i = r->tab_idx[ti], n = p->n[i], down = p->down[i];
        const uint8_t *c = p->c[i];
        if (!n) {
            total += w->empty;
            continue;
        }
        total -= w->face_down * down;
        int run = 1;
        for (int j = down + 1; j < n; j++) {
            if (r->tfits[c[j]][c[j - 1]]) {
                total += w->link;
                if (r->grp.present && r->gfits[c[j]][c[j - 1]]) {
                    run++;
                    continue;
                }
            }
            total += w->runs * run * run;
            run = 1;
        }
        total += w->runs * run * run;
        if (wanted) {
            for (int j = 0; j < n; j++)
                if (wanted >> c[j] & 1) total -= w->buried * (n - 1 - j);
        }
    }
    return total;
}

/* -- growable storage ----------------------------------------------------------------- */

typedef struct {
    uint8_t *data;
    size_t len, cap;
} Bytes;

static int bytes_reserve(Bytes *b, size_t more) {
    if (b->len + more <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : (1 << 16);
    while (cap < b->len + more) cap *= 2;
    uint8_t *d = realloc(b->data, cap);
    if (!d) return -1;
    b->data = d;
    b->cap = cap;
    return 0;
}

#define VEC(name, type)                                                               \
    typedef struct {                                                                  \
        type *data;                                                                   \
        size_t len, cap;                                                              \
    } name;                                                                           \
    static int name##_push(name *v, type x) {                                         \
        if (v->len == v->cap) {                                                       \
            size_t cap = v->cap ? v->cap * 2 : 4096;                                  \
            type *d = realloc(v->data, cap * sizeof(type));                           \
            if (!d) return -1;                                                        \
            v->data = d;                                                              \
            v->cap = cap;                                                             \
        }                                                                             \
        v->data[v->len++] = x;                                                        \
        return 0;                                                                     \
    }

VEC(U64Vec, uint64_t)
VEC(I32Vec, int32_t)
VEC(MoveVec, Move)

typedef struct {
    double prio;
    int64_t node;
    int32_t depth;
} HeapItem;

VEC(HeapVec, HeapItem)

static inline int heap_less(const HeapItem *a, const HeapItem *b) {
    return a->prio < b->prio || (a->prio == b->prio && a->node < b->node);
}

static int heap_push(HeapVec *h, HeapItem x) {
    if (HeapVec_push(h, x)) return -1;
    size_t i = h->len - 1;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!heap_less(&h->data[i], &h->data[parent])) break;
        HeapItem tmp = h->data[i];
        h->data[i] = h->data[parent];
        h->data[parent] = tmp;
        i = parent;
    }
    return 0;
}

static HeapItem heap_pop(HeapVec *h) {
    HeapItem top = h->data[0];
    h->data[0] = h->data[--h->len];
    size_t i = 0, n = h->len;
    for (;;) {
        size_t l = 2 * i + 1, rr = l + 1, m = i;
        if (l < n && heap_less(&h->data[l], &h->data[m])) m = l;
        if (rr < n && heap_less(&h->data[rr], &h->data[m])) m = rr;
        if (m == i) break;
        HeapItem tmp = h->data[i];
        h->data[i] = h->data[m];
        h->data[m] = tmp;
        i = m;
    }
    return top;
}

/* The transposition table: open addressing over slots of (hash, offset of the full key in
 * keys), side by side so that a probe reads one cache line. */
typedef struct {
    uint64_t hash; /* 0: empty */
    uint64_t off;
} Slot;

typedef struct {
    Slot *slot;
    size_t cap, count;
    Bytes keys;
} Table;

static uint64_t hash_bytes(const uint8_t *b, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, b + i, 8);
        h = (h ^ v) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    uint64_t v = 0;
    memcpy(&v, b + i, n - i);
    h = (h ^ v) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h | 1;
}

static int table_grow(Table *t) {
    size_t cap = t->cap ? t->cap * 2 : (1 << 12);
    Slot *slot = calloc(cap, sizeof(Slot));
    if (!slot) return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slot[i].hash) continue;
        size_t j = t->slot[i].hash & (cap - 1);
        while (slot[j].hash) j = (j + 1) & (cap - 1);
        slot[j] = t->slot[i];
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return 0;
}

/* 1: added (new), 0: met before, -1: out of memory. */
static int table_add(Table *t, const uint8_t *key, int n) {
    if ((t->count + 1) * 2 > t->cap && table_grow(t)) return -1;
    uint64_t h = hash_bytes(key, n);
    size_t j = h & (t->cap - 1);
    while (t->slot[j].hash) {
        if (t->slot[j].hash == h) {
            const uint8_t *stored = t->keys.data + t->slot[j].off;
            if (stored[0] == n && memcmp(stored + 1, key, n) == 0) return 0;
        }
        j = (j + 1) & (t->cap - 1);
    }
    if (bytes_reserve(&t->keys, n + 1)) return -1;
    t->slot[j].hash = h;
    t->slot[j].off = t->keys.len;
    t->keys.data[t->keys.len] = (uint8_t)n;
    memcpy(t->keys.data + t->keys.len + 1, key, n);
    t->keys.len += n + 1;
    t->count++;
    return 1;
}

static void table_free(Table *t) {
    free(t->slot);
    free(t->keys.data);
}

/* -- the search ----------------------------------------------------------------------- */

enum { R_LOST, R_WON, R_UNKNOWN, R_NOMEM };

typedef struct {
    const Rules *r;
    Weights w;
    int dfs, narrow;
    double move_cost;
    int64_t max_positions, positions, next_look;
    double deadline;
    Table seen;
    Bytes states;    /* each kept node's packed position: length byte then bytes */
    U64Vec state_off; /* by node */
    I32Vec parent;    /* by node */
    MoveVec move;     /* by node */
    int64_t won_node;
    /* With ``best``: the first node met with the highest score (the start's, node 0, when
     * none beats it), the look-ahead a hint falls back on when no win is found. */
    int want_best;
    double best_score;
    int64_t best_node;
    /* With ``view_only``: no safe move, and a move that turns up a face-down card (a deal
     * included) ends the search unknown, so that a loss is proven from the face-up cards
     * alone, whatever the face-down ones are. */
    int view_only;
} Search;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CLOCK_EVERY 256

typedef struct {
    double score;
    int64_t node;
} Child;

/* deadends.reserve_blocked: each family's reserve cards, top first, laid on the highest of
 * its foundations no higher than the card's distance above the base rank; none: a dead end. */
static int reserve_blocked(const Rules *r, const Pos *p) {
    if (!r->dead_reserve || r->reserve < 0 || p->base == 0) return 0;
    int nr = p->n[r->reserve];
    if (!nr) return 0;
    int per = r->nfnd / 2, height[2][MAXP], count[2] = {0, 0};
    for (int i = 0; i < r->nfnd; i++) {
        int f = r->fnd_idx[i];
        if (p->n[f]) {
            int family = red_of(p->c[f][0]);
            if (count[family] < MAXP) height[family][count[family]++] = p->n[f];
        }
    }
    for (int family = 0; family < 2; family++)
        while (count[family] < per) height[family][count[family]++] = 0;
    for (int j = nr - 1; j >= 0; j--) {
        int c = p->c[r->reserve][j];
        int distance = (rank_of(c) - p->base + 13) % 13;
        int family = red_of(c) ^ (distance & 1), best = -1;
        for (int k = 0; k < count[family]; k++)
            if (height[family][k] <= distance &&
                (best < 0 || height[family][k] > height[family][best]))
                best = k;
        if (best < 0) return 1;
        height[family][best] = distance + 1;
    }
    return 0;
}

/* One node's children not met before, scored; returns their count or -(result + 1). */
static int expand(Search *x, int64_t node, Pos *p, Child *children) {
    const Rules *r = x->r;
    Move moves[MAXMOVES];
    int n = legal_moves(r, p, moves);
    if (r->fold_deals && node > 0 && x->move.data[node].s == DEAL_S) {
        int kept = 0;
        for (int i = 0; i < n; i++) {
            Move m = moves[i];
            if (m.s == DEAL_S || m.s == r->waste ||
                (r->refills && r->kind[m.s] == K_TABLEAU && m.count == p->n[m.s]))
                moves[kept++] = m;
        }
        n = kept;
    }
    if (x->narrow) n = productive(r, p, moves, n);
    int safe = x->view_only ? -1 : safe_move(r, p, moves, n);
    if (safe >= 0) {
        moves[0] = moves[safe];
        n = 1;
    } else {
        n = distinct(r, p, moves, n);
    }
    /* A move only appends past a pile's count or lowers it, but for a refill, which writes an
     * emptied pile's first card: the counts and that card restore the position. */
    int base = p->base;
    uint8_t n_saved[MAXP], down_saved[MAXP];
    memcpy(n_saved, p->n, sizeof n_saved);
    memcpy(down_saved, p->down, sizeof down_saved);
    uint8_t key[MAXKEY + SLACK];
    int k = 0, hidden = 0;
    if (x->view_only)
        for (int i = 0; i < r->np; i++) hidden += p->down[i];
    for (int i = 0; i < n; i++) {
        int first = moves[i].s == DEAL_S ? 0 : p->c[moves[i].s][0];
        apply_move(r, p, moves[i]);
        x->positions++;
        int64_t child = (int64_t)x->parent.len;
        if (I32Vec_push(&x->parent, (int32_t)node) || MoveVec_push(&x->move, moves[i]) ||
            U64Vec_push(&x->state_off, 0))
            return -(R_NOMEM + 1);
        if (is_won(r, p)) {
            x->won_node = child;
            return -(R_WON + 1);
        }
        if (x->positions >= x->max_positions) return -(R_UNKNOWN + 1);
        if (x->view_only) {
            int left = 0;
            for (int j = 0; j < r->np; j++) left += p->down[j];
            if (left < hidden) return -(R_UNKNOWN + 1);
        }
        if (x->positions >= x->next_look) {
            x->next_look += CLOCK_EVERY;
            if (now() >= x->deadline) return -(R_UNKNOWN + 1);
        }
        int kn = canonical_key(r, p, key);
        if (r->fold_deals) key[kn++] = moves[i].s == DEAL_S;
        int added = table_add(&x->seen, key, kn);
        if (added < 0) return -(R_NOMEM + 1);
        if (!added || reserve_blocked(r, p)) {
            x->parent.len--;
            x->move.len--;
            x->state_off.len--;
        } else {
            /* packed straight into the store, with room for SLACK past it (load) */
            if (bytes_reserve(&x->states, 1 + MAXKEY + SLACK)) return -(R_NOMEM + 1);
            int pn = pack(r, p, x->states.data + x->states.len + 1);
            x->state_off.data[child] = x->states.len;
            x->states.data[x->states.len] = (uint8_t)pn;
            x->states.len += pn + 1;
            children[k].score = evaluate(r, &x->w, p);
            children[k].node = child;
            if (x->want_best && children[k].score > x->best_score) {
                x->best_score = children[k].score;
                x->best_node = child;
            }
            k++;
        }
        p->base = base;
        memcpy(p->n, n_saved, sizeof n_saved);
        memcpy(p->down, down_saved, sizeof down_saved);
        if (moves[i].s != DEAL_S) p->c[moves[i].s][0] = (uint8_t)first;
    }
    return k;
}

/* A kept node's position: packed by the search itself, so not checked again as unpack
 * checks what Python passes. */
static void load(const Search *x, int64_t node, Pos *p) {
    const uint8_t *b = x->states.data + x->state_off.data[node] + 1;
    int k = 1;
    p->base = b[0];
    for (int i = 0; i < x->r->np; i++) {
        int n = b[k];
        p->n[i] = (uint8_t)n;
        p->down[i] = b[k + 1];
        copy_cards(p->c[i], b + k + 2, n);
        k += 2 + n;
    }
}

static int run_search(Search *x, const Pos *start) {
    const Rules *r = x->r;
    Pos p = *start;
    if (is_won(r, &p)) {
        x->won_node = 0;
        return R_WON;
    }
    uint8_t key[MAXKEY + SLACK];
    int kn = canonical_key(r, &p, key);
    if (r->fold_deals) key[kn++] = 0;
    if (table_add(&x->seen, key, kn) < 0) return R_NOMEM;
    if (bytes_reserve(&x->states, 1 + MAXKEY + SLACK)) return R_NOMEM;
    int pn = pack(r, &p, x->states.data + 1);
    x->states.data[0] = (uint8_t)pn;
    x->states.len = pn + 1;
    if (U64Vec_push(&x->state_off, 0) || I32Vec_push(&x->parent, -1)) return R_NOMEM;
    Move none = {0, 0, 0};
    if (MoveVec_push(&x->move, none)) return R_NOMEM;
    if (x->want_best) {
        x->best_score = evaluate(r, &x->w, &p);
        x->best_node = 0;
    }
    Child children[MAXMOVES];
    int result = R_LOST;
    if (x->dfs) {
        I32Vec stack = {0};
        if (I32Vec_push(&stack, 0)) return R_NOMEM;
        while (stack.len) {
            int64_t node = stack.data[--stack.len];
            load(x, node, &p);
            int k = expand(x, node, &p, children);
            if (k < 0) {
                result = -k - 1;
                break;
            }
            /* sorted by score, stable (best last: popped first) */
            for (int i = 1; i < k; i++) {
                Child v = children[i];
                int j = i - 1;
                while (j >= 0 && children[j].score > v.score) {
                    children[j + 1] = children[j];
                    j--;
                }
                children[j + 1] = v;
            }
            for (int i = 0; i < k; i++) {
                if (I32Vec_push(&stack, (int32_t)children[i].node)) {
                    result = R_NOMEM;
                    goto dfs_done;
                }
            }
        }
    dfs_done:
        free(stack.data);
    } else {
        HeapVec heap = {0};
        HeapItem first = {0.0, 0, 0};
        if (heap_push(&heap, first)) return R_NOMEM;
        while (heap.len) {
            HeapItem item = heap_pop(&heap);
            load(x, item.node, &p);
            double cost = x->move_cost * (item.depth + 1);
            int k = expand(x, item.node, &p, children);
            if (k < 0) {
                result = -k - 1;
                break;
            }
            for (int i = 0; i < k; i++) {
                HeapItem next = {cost - children[i].score, children[i].node, item.depth + 1};
                if (heap_push(&heap, next)) {
                    result = R_NOMEM;
                    goto best_done;
                }
            }
        }
    best_done:
        free(heap.data);
    }
    return result;
}

static void search_free(Search *x) {
    table_free(&x->seen);
    free(x->states.data);
    free(x->state_off.data);
    free(x->parent.data);
    free(x->move.data);
}

/* -- Python ---------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD Rules r;
} RulesObject;

static int parse_build(const uint8_t *b, BuildRule *out) {
    out->present = b[0];
    out->step = b[1] == 0 ? -1 : 1;
    out->suits = b[2];
    out->wrap = b[3];
    return out->suits <= S_SAME ? 0 : -1;
}

/* Rules' configuration, by name (games/solver/core.py ``CoreRules`` declares the same names,
 * each field read from the game's own declarations): every one keyword-only and required, so
 * a misnamed, missing or extra field, or a positional one, fails loudly instead of
 * configuring the core with fields out of line. */
static char *RULES_FIELDS[] = {"kinds", "routes", "builds", "complete", "foundation_start",
                               "deal_count", "deal_mode", "settle_mode",
                               "tableau_always_interchangeable", "foundations_interchangeable",
                               "refills_emptied_piles", "sets_base_rank", "keyed_by_colour",
                               "discard_out_of_key", "safe_home", "folds_deals",
                               "reserve_dead_end", NULL};

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kwds) {
    const uint8_t *kinds = NULL, *routes = NULL, *builds = NULL, *complete = NULL;
    Py_ssize_t nk = 0, nr = 0, nb = 0, nc = 0;
    int fstart = -1, deal_count = -1, deal_mode = -1, settle_mode = -1, safe_rule = -1;
    PyObject *sort_tab = NULL, *sort_fnd = NULL, *refills_o = NULL, *sets_base_o = NULL,
             *key_colour_o = NULL, *out_of_key_o = NULL, *fold_deals_o = NULL,
             *dead_reserve_o = NULL;
    /* An unknown field named, rather than only counted past the 16 as the parser would. */
    PyObject *key, *value;
    Py_ssize_t at = 0;
    while (kwds && PyDict_Next(kwds, &at, &key, &value)) {
        const char *given = PyUnicode_AsUTF8(key);
        if (!given) return -1;
        char **name = RULES_FIELDS;
        while (*name && strcmp(*name, given)) name++;
        if (!*name) {
            PyErr_Format(PyExc_TypeError, "Rules() got an unexpected keyword argument '%s'", given);
            return -1;
        }
    }
    /* "|$": CPython's parser allows keyword-only fields only as optional ones; each is then
     * required below. Flags must be real bools (O!), so a number in a flag's place fails. */
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "|$y#y#y#y#iiiiO!O!O!O!O!O!iO!O!", RULES_FIELDS, &kinds, &nk, &routes, &nr,
            &builds, &nb, &complete, &nc, &fstart, &deal_count, &deal_mode, &settle_mode,
            &PyBool_Type, &sort_tab, &PyBool_Type, &sort_fnd, &PyBool_Type, &refills_o,
            &PyBool_Type, &sets_base_o, &PyBool_Type, &key_colour_o, &PyBool_Type, &out_of_key_o,
            &safe_rule, &PyBool_Type, &fold_deals_o, &PyBool_Type, &dead_reserve_o))
        return -1;
    for (char **name = RULES_FIELDS; *name; name++) {
        PyObject *given = kwds ? PyDict_GetItemString(kwds, *name) : NULL;
        if (!given) {
            PyErr_Format(PyExc_TypeError, "Rules() missing required keyword argument '%s'", *name);
            return -1;
        }
    }
    if (fstart < START_NONE || fstart > START_BASE || deal_mode < DEAL_NONE ||
        deal_mode > DEAL_TO_PILES || settle_mode < SETTLE_TURN_UP || settle_mode > SETTLE_RUNS ||
        safe_rule < SAFE_AWAY || safe_rule > SAFE_ANY_SUIT || deal_count < 0) {
        PyErr_SetString(PyExc_ValueError, "Rules(): a mode out of range");
        return -1;
    }
    int key_colour = key_colour_o == Py_True;
    int key_discard = out_of_key_o != Py_True, fold_deals = fold_deals_o == Py_True;
    int refills = refills_o == Py_True, sets_base = sets_base_o == Py_True;
    Rules *r = &self->r;
    memset(r, 0, sizeof *r);
    if (nk < 1 || nk > MAXP || nc != nk || nr != K_COUNT * K_COUNT || nb != 12) {
        PyErr_SetString(PyExc_ValueError, "malformed rules");
        return -1;
    }
    r->np = (int)nk;
    r->stock = r->waste = r->reserve = r->discard = -1;
    for (int i = 0; i < r->np; i++) {
        if (kinds[i] >= K_COUNT) {
            PyErr_SetString(PyExc_ValueError, "unknown pile kind");
            return -1;
        }
        r->kind[i] = kinds[i];
        r->complete_rank[i] = complete[i];
    }
    memcpy(r->route, routes, sizeof r->route);
    if (parse_build(builds, &r->tab) || parse_build(builds + 4, &r->grp) ||
        parse_build(builds + 8, &r->fnd)) {
        PyErr_SetString(PyExc_ValueError, "malformed building rule");
        return -1;
    }
    r->fstart = fstart;
    r->deal_count = deal_count;
    r->deal_mode = deal_mode;
    r->settle_mode = settle_mode;
    r->sort_tableau_always = sort_tab == Py_True;
    r->sort_foundations = sort_fnd == Py_True;
    r->refills = refills;
    r->sets_base = sets_base;
    r->key_colour = key_colour;
    r->key_discard = key_discard;
    r->safe_rule = safe_rule;
    r->fold_deals = fold_deals;
    r->dead_reserve = dead_reserve_o == Py_True;
    for (int c = 0; c < 52; c++) r->rank_bits[rank_of(c)] |= 1ULL << c;
    for (int c = 0; c < 52; c++) r->keycard[c] = (uint8_t)(key_colour ? red_of(c) * 13 + c % 13 : c);
    for (int a = 0; a < 52; a++)
        for (int b = 0; b < 52; b++) {
            r->tfits[a][b] = (uint8_t)build_fits(&r->tab, a, b);
            r->gfits[a][b] = (uint8_t)build_fits(&r->grp, a, b);
            r->ffits[a][b] = (uint8_t)build_fits(&r->fnd, a, b);
            if (r->ffits[a][b]) r->follows_bits[b] |= 1ULL << a;
            if (r->tfits[a][b]) r->tfits_bits[b] |= 1ULL << a;
        }
    for (int i = 0; i < r->np; i++) {
        int k = r->kind[i], src = 0, tgt = 0;
        for (int o = 0; o < K_COUNT; o++) {
            src |= r->route[k][o];
            tgt |= r->route[o][k];
        }
        if (src) r->src_idx[r->nsrc++] = i;
        if (tgt) r->tgt_idx[r->ntgt++] = i;
        if (k == K_FOUNDATION || k == K_DISCARD)
            r->home_idx[r->nhome++] = i;
        else
            r->away_idx[r->naway++] = i;
        if (k == K_TABLEAU) r->tab_idx[r->ntab++] = i;
        if (k == K_FOUNDATION) r->fnd_idx[r->nfnd++] = i;
        if (k != K_TABLEAU && !(k == K_FOUNDATION && r->sort_foundations))
            r->fixed_idx[r->nfixed++] = i;
        if (k == K_STOCK) r->stock = i;
        if (k == K_WASTE) r->waste = i;
        if (k == K_RESERVE) r->reserve = i;
        if (k == K_DISCARD) r->discard = i;
    }
    if ((r->deal_mode != DEAL_NONE && r->stock < 0) ||
        (r->deal_mode == DEAL_TO_WASTE && r->waste < 0) ||
        (r->settle_mode == SETTLE_RUNS && (r->discard < 0 || !r->grp.present))) {
        PyErr_SetString(PyExc_ValueError, "inconsistent rules");
        return -1;
    }
    return 0;
}

static int get_pos(RulesObject *self, PyObject *arg, Pos *p) {
    char *b;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(arg, &b, &n) < 0) return -1;
    if (unpack(&self->r, (const uint8_t *)b, n, p) < 0) {
        PyErr_SetString(PyExc_ValueError, "malformed packed position");
        return -1;
    }
    return 0;
}

static PyObject *move_tuple(Move m) {
    if (m.s == DEAL_S) return Py_BuildValue("(iii)", -1, -1, 0);
    return Py_BuildValue("(iii)", m.s, m.t, m.count);
}

static PyObject *move_list(const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = move_tuple(moves[i]);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *Rules_legal_moves(RulesObject *self, PyObject *arg) {
    Pos p;
    Move moves[MAXMOVES];
    if (get_pos(self, arg, &p)) return NULL;
    return move_list(moves, legal_moves(&self->r, &p, moves));
}

static int get_move(RulesObject *self, const Pos *p, int s, int t, int count, Move *m) {
    if (s < 0) {
        if (!deal_allowed(&self->r, p)) goto bad;
        m->s = m->t = DEAL_S;
        m->count = 0;
        return 0;
    }
    if (s >= self->r.np || t < 0 || t >= self->r.np || count < 1 ||
        !legal(&self->r, p, s, t, count))
        goto bad;
    m->s = (uint8_t)s;
    m->t = (uint8_t)t;
    m->count = (uint8_t)count;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "not a legal move here");
    return -1;
}

static PyObject *Rules_successor(RulesObject *self, PyObject *args) {
    PyObject *state;
    int s, t, count;
    Pos p;
    Move m;
    uint8_t out[MAXKEY + SLACK];
    if (!PyArg_ParseTuple(args, "O(iii)", &state, &s, &t, &count)) return NULL;
    if (get_pos(self, state, &p) || get_move(self, &p, s, t, count, &m)) return NULL;
    apply_move(&self->r, &p, m);
    return PyBytes_FromStringAndSize((const char *)out, pack(&self->r, &p, out));
}

static PyObject *Rules_key(RulesObject *self, PyObject *arg) {
    Pos p;
    uint8_t out[MAXKEY + SLACK];
    if (get_pos(self, arg, &p)) return NULL;
    return PyBytes_FromStringAndSize((const char *)out, canonical_key(&self->r, &p, out));
}

static PyObject *Rules_safe_move(RulesObject *self, PyObject *args) {
    PyObject *state;
    int narrow = 0;
    Pos p;
    Move moves[MAXMOVES];
    if (!PyArg_ParseTuple(args, "O|p", &state, &narrow)) return NULL;
    if (get_pos(self, state, &p)) return NULL;
    int n = legal_moves(&self->r, &p, moves);
    if (narrow) n = productive(&self->r, &p, moves, n);
    int i = safe_move(&self->r, &p, moves, n);
    if (i < 0) Py_RETURN_NONE;
    return move_tuple(moves[i]);
}

static PyObject *Rules_productive(RulesObject *self, PyObject *arg) {
    Pos p;
    Move moves[MAXMOVES];
    if (get_pos(self, arg, &p)) return NULL;
    int n = legal_moves(&self->r, &p, moves);
    return move_list(moves, productive(&self->r, &p, moves, n));
}

static int get_weights(PyObject *seq, Weights *w) {
    double v[9];
    if (!PyArg_ParseTuple(seq, "ddddddddd", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                          &v[7], &v[8]))
        return -1;
    w->home = v[0];
    w->link = v[1];
    w->runs = v[2];
    w->face_down = v[3];
    w->buried = v[4];
    w->empty = v[5];
    w->waste = v[6];
    w->reserve = v[7];
    w->stock = v[8];
    int64_t whole[9];
    w->whole = 1;
    for (int i = 0; i < 9; i++) {
        /* whole and small: every term and sum of a score then stays far below 2**53 */
        if (!(v[i] >= -1048576.0 && v[i] <= 1048576.0) || v[i] != (double)(int64_t)v[i])
            w->whole = 0;
        whole[i] = w->whole ? (int64_t)v[i] : 0;
    }
    w->ihome = whole[0];
    w->ilink = whole[1];
    w->iruns = whole[2];
    w->iface_down = whole[3];
    w->iburied = whole[4];
    w->iempty = whole[5];
    w->iwaste = whole[6];
    w->ireserve = whole[7];
    w->istock = whole[8];
    return 0;
}

static PyObject *Rules_score(RulesObject *self, PyObject *args) {
    PyObject *state, *weights;
    Pos p;
    Weights w;
    if (!PyArg_ParseTuple(args, "OO!", &state, &PyTuple_Type, &weights)) return NULL;
    if (get_pos(self, state, &p) || get_weights(weights, &w)) return NULL;
    return PyFloat_FromDouble(evaluate(&self->r, &w, &p));
}

static const char *OUTCOMES[] = {"lost", "won", "unknown"};

/* The moves from the start to ``node``, as a list of move tuples. */
static PyObject *line_to(const Search *x, int64_t node) {
    int64_t depth = 0;
    for (int64_t n = node; n > 0; n = x->parent.data[n]) depth++;
    PyObject *line = PyList_New((Py_ssize_t)depth);
    if (!line) return NULL;
    int64_t i = depth;
    for (int64_t n = node; n > 0; n = x->parent.data[n]) {
        PyObject *t = move_tuple(x->move.data[n]);
        if (!t) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, (Py_ssize_t)--i, t);
    }
    return line;
}

static PyObject *Rules_search(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"state", "weights", "dfs", "move_cost", "narrow", "positions",
                            "seconds", "best", "view_only", NULL};
    PyObject *state, *weights;
    int dfs = 0, narrow = 0, best = 0, view_only = 0;
    double move_cost = 0.0, seconds = 10.0;
    long long positions = 2000000;
    Pos p;
    Search x;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO!|pdpLdpp", names, &state, &PyTuple_Type,
                                     &weights, &dfs, &move_cost, &narrow, &positions, &seconds,
                                     &best, &view_only))
        return NULL;
    memset(&x, 0, sizeof x);
    if (get_pos(self, state, &p) || get_weights(weights, &x.w)) return NULL;
    x.r = &self->r;
    x.dfs = dfs;
    x.narrow = narrow;
    x.move_cost = move_cost;
    x.max_positions = positions;
    x.next_look = CLOCK_EVERY;
    x.want_best = best;
    x.view_only = view_only;
    int result;
    Py_BEGIN_ALLOW_THREADS;
    x.deadline = now() + seconds;
    result = run_search(&x, &p);
    Py_END_ALLOW_THREADS;
    if (result == R_NOMEM) {
        search_free(&x);
        return PyErr_NoMemory();
    }
    PyObject *line = Py_None;
    Py_INCREF(line);
    if (result == R_WON) {
        Py_DECREF(line);
        line = line_to(&x, x.won_node);
        if (!line) {
            search_free(&x);
            return NULL;
        }
    }
    long long counted = x.positions;
    if (!best) {
        search_free(&x);
        return Py_BuildValue("(sLN)", OUTCOMES[result], counted, line);
    }
    PyObject *best_line = result == R_UNKNOWN ? line_to(&x, x.best_node) : PyList_New(0);
    double best_score = x.best_score;
    search_free(&x);
    if (!best_line) {
        Py_DECREF(line);
        return NULL;
    }
    return Py_BuildValue("(sLNNd)", OUTCOMES[result], counted, line, best_line, best_score);
}

static PyMethodDef Rules_methods[] = {
    {"legal_moves", (PyCFunction)Rules_legal_moves, METH_O,
     "legal_moves(packed) -> [(source, target, count)], the stock action as (-1, -1, 0)"},
    {"successor", (PyCFunction)Rules_successor, METH_VARARGS,
     "successor(packed, (source, target, count)) -> packed"},
    {"key", (PyCFunction)Rules_key, METH_O, "key(packed) -> the canonical key, bytes"},
    {"safe_move", (PyCFunction)Rules_safe_move, METH_VARARGS,
     "safe_move(packed, narrow=False) -> the move made at once, or None"},
    {"productive", (PyCFunction)Rules_productive, METH_O,
     "productive(packed) -> the moves a narrow pass tries"},
    {"score", (PyCFunction)Rules_score, METH_VARARGS, "score(packed, weights) -> float"},
    {"search", (PyCFunction)(void (*)(void))Rules_search, METH_VARARGS | METH_KEYWORDS,
     "search(packed, weights, dfs=False, move_cost=0.0, narrow=False, positions=2000000, "
     "seconds=10.0, best=False, view_only=False) -> (outcome, positions, line or None); with "
     "view_only, no safe moves and a turned-up card ends it unknown; with best, also the "
     "line to the first position met with the highest score when unknown ([] otherwise) and "
     "that score"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.solver._core.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game's rules, as the core plays them.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
    .tp_methods = Rules_methods,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "games.solver._core",
    "The solver's compiled search core (see games/solver/core.py).", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(m);
        return NULL;
    }
    Py_ssize_t count = 0;
    while (RULES_FIELDS[count]) count++;
    PyObject *fields = PyTuple_New(count);
    for (Py_ssize_t i = 0; fields && i < count; i++) {
        PyObject *text = PyUnicode_FromString(RULES_FIELDS[i]);
        if (!text) Py_CLEAR(fields);
        else PyTuple_SET_ITEM(fields, i, text);
    }
    /* The names Rules() takes, in order: core.py checks its declaration against them. */
    if (!fields || PyModule_AddObject(m, "RULES_FIELDS", fields) < 0) {
        Py_XDECREF(fields);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MAX_PILES", MAXP);
    PyModule_AddIntConstant(m, "MAX_PILE_CARDS", MAXC);
    return m;
}

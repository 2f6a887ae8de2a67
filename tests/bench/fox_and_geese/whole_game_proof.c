/* Can the Geese force a win from the start of the whole game (F1-F3)? The compiled proof search
 * that whole_game_proof.py builds and runs.
 *
 * The same depth-first proof-number search as companion/pi/geese_proof.py (Nagai's df-pn with
 * Pawlewicz's 1+epsilon thresholds, start numbers from the count of moves, a Fox on a haven
 * counted as a loss, which only makes a proof stricter), compiled, because the whole game needs
 * billions of positions. Numbers are 64-bit: no sum saturates below the settled value (32-bit
 * sums that saturate leave a parent and its child handing the same thresholds back and forth
 * for ever). A position and its mirror image (columns a-g the other way: the board and the
 * default sideways points are symmetric) are one entry. The table keeps (pn, dn, work) per
 * position in open addressing; when it is 7/8 full, the least-worked half is dropped (proven
 * positions included: walking the proof tree at the end proves again any it meets missing).
 * With NEAR > 0 the Geese's moves are those from or to a point within NEAR steps of the Fox,
 * and one other (still a real proof: the Fox keeps every reply; a disproof then says nothing).
 *
 * The board's tables come from board.h, written from the rulebook's own Board.
 *
 * Usage: whole_game_proof TABLE_BITS NODES NEAR OUT.txt [FOX GEESE]: from the start, or from FOX
 * GEESE (grid indexes, geese as a 49-bit mask) with the Geese to move. Prints the start's numbers
 * every 100 million positions; if it is proved, writes the proof tree to OUT.txt as lines "fox
 * geese from to", one per position where the Geese choose (a mirror image once).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "board.h"

typedef uint64_t u64;
#define MAXM 2048                 /* moves of one position (the Fox's jump chains included) */
#define INF (1ULL << 62)          /* a settled number: no end of the search reaches it */
#define SEEN (INF + 7)            /* a proven position already written (in dn) */

typedef struct { u64 key, pn, dn; uint32_t work; } Entry;
typedef struct { int fox; u64 geese; int from, to; } Move;

static u64 ALL, EVEN, NOTA, NOTG, SIDEWAYS, NEARMASK[49];
static int near_steps;
static Entry *table; static u64 tmask, used, nodes, budget, root_key, collections;

static uint8_t REVERSED[128];      /* a row's 7 points, left to right the other way */

static inline u64 mirrored(u64 geese) {
  u64 out = 0;
  for (int r = 0; r < 7; r++) out |= (u64)REVERSED[geese >> (7 * r) & 127] << (7 * r);
  return out;
}

/* A position and its mirror image (columns a-g the other way: the board, its lines and the
 * default sideways points are symmetric) share one entry: the smaller key. */
static inline u64 mkkey(int fox, u64 geese, int fox_to_move) {
  u64 key = geese << 7 | (u64)fox << 1 | (u64)fox_to_move;
  u64 mirror = mirrored(geese) << 7 | (u64)(fox / 7 * 7 + 6 - fox % 7) << 1 | (u64)fox_to_move;
  return key < mirror ? key : mirror;
}
static inline u64 mix(u64 k) {
  k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
  return k ^ (k >> 33);
}
static inline int log2w(uint32_t w) { int b = 0; while (w) { b++; w >>= 1; } return b; }

/* Drop the least-worked half of the table and re-seat the rest (linear probing, in place:
 * starting after an empty slot, every entry moves only towards its home). */
static void collect(void) {
  u64 hist[34] = {0}, dropped = 0, acc = 0, start = 0;
  int cut = 0;
  for (u64 i = 0; i <= tmask; i++) if (table[i].key) hist[log2w(table[i].work)]++;
  while (cut < 34 && acc < used / 2) acc += hist[cut++];
  for (u64 i = 0; i <= tmask; i++)
    if (table[i].key && log2w(table[i].work) < cut) { table[i].key = 0; dropped++; }
  used -= dropped;
  while (table[start].key) start++;
  for (u64 k = 1; k <= tmask + 1; k++) {
    u64 i = (start + k) & tmask;
    if (!table[i].key) continue;
    Entry x = table[i]; table[i].key = 0;
    u64 j = mix(x.key) & tmask;
    while (table[j].key) j = (j + 1) & tmask;
    table[j] = x;
  }
  fprintf(stderr, "table: dropped %llu positions (work < 2^%d), kept %llu\n",
          (unsigned long long)dropped, cut - 1, (unsigned long long)used);
  collections++;
}

static Entry *lookup(u64 key, int create) {
  u64 i = mix(key) & tmask;
  while (table[i].key) { if (table[i].key == key) return &table[i]; i = (i + 1) & tmask; }
  if (!create) return NULL;
  if (used + 1 > tmask - (tmask >> 3)) {
    collect();
    i = mix(key) & tmask;
    while (table[i].key) i = (i + 1) & tmask;
  }
  used++;
  table[i].key = key; table[i].work = 0;
  return &table[i];
}

/* Points no goose can reach again (geese never step back), beside another: a Fox there walks
 * to and fro until the geese run out of moves. */
static u64 havens(u64 geese) {
  u64 cone = geese, frontier = geese;
  while (frontier) {
    u64 even = frontier & EVEN;
    frontier = ALL & ~cone & ((frontier << 7) | ((even & NOTG) << 8) | ((even & NOTA) << 6)
        | ((frontier & SIDEWAYS & NOTG) << 1) | ((frontier & SIDEWAYS & NOTA) >> 1));
    cone |= frontier;
  }
  u64 out = ALL & ~cone, ev = out & EVEN;
  u64 spread = ALL & ((out << 7) | (out >> 7) | ((out & NOTG) << 1) | ((out & NOTA) >> 1)
      | ((ev & NOTG) << 8) | ((ev & NOTA) << 6) | ((ev & NOTA) >> 8) | ((ev & NOTG) >> 6));
  return out & spread;
}

/* Every end of a jump chain from `here` (F2: the Fox keeps jumping while it can), each distinct
 * position once. */
static int chains(int here, u64 geese, Move *out, int n, int jumped) {
  int further = 0;
  for (int j = 0; j < 9 && JUMPS[here][j][0] >= 0; j++) {
    int over = JUMPS[here][j][0], land = JUMPS[here][j][1];
    if ((geese >> over & 1) && !(geese >> land & 1)) {
      further = 1;
      n = chains(land, geese & ~(1ULL << over), out, n, 1);
    }
  }
  if (!further && jumped) {
    for (int j = 0; j < n; j++) if (out[j].fox == here && out[j].geese == geese) return n;
    if (n >= MAXM) { fprintf(stderr, "too many jump chains\n"); exit(6); }
    out[n].fox = here; out[n].geese = geese; out[n].to = here; n++;
  }
  return n;
}

static int moves(int fox, u64 geese, int fox_to_move, Move *out) {
  int n = 0;
  if (fox_to_move) {
    n = chains(fox, geese, out, 0, 0);
    for (int i = 0; i < n; i++) out[i].from = fox;
    if (n) return n;                                  /* a jump is there: it must be taken */
    for (int j = 0; j < 9 && STEPS[fox][j] >= 0; j++) {
      int t = STEPS[fox][j];
      if (!(geese >> t & 1)) { out[n] = (Move){t, geese, fox, t}; n++; }
    }
    return n;
  }
  u64 taken = geese | 1ULL << fox;
  int waiting = 0;
  for (int p = 0; p < 49; p++) if (geese >> p & 1)
    for (int j = 0; j < 6 && GSTEPS[p][j] >= 0; j++) {
      int t = GSTEPS[p][j];
      if (taken >> t & 1) continue;
      if (near_steps && !((NEARMASK[fox] >> p & 1) || (NEARMASK[fox] >> t & 1))) {
        if (waiting) continue;
        waiting = 1;
      }
      out[n] = (Move){fox, geese ^ 1ULL << p ^ 1ULL << t, p, t}; n++;
    }
  return n;
}

/* 1 and the settled numbers if the game is over here (or the Fox is on a haven). */
static int ended(int fox, u64 geese, int fox_to_move, u64 *pn, u64 *dn, int *count) {
  Move m[MAXM];
  *count = 0;
  if (__builtin_popcountll(geese) < TO_PEN) { *pn = INF; *dn = 0; return 1; }
  if (!fox_to_move && (havens(geese) >> fox & 1)) { *pn = INF; *dn = 0; return 1; }
  *count = moves(fox, geese, fox_to_move, m);
  if (*count) return 0;
  if (fox_to_move) { *pn = 0; *dn = INF; } else { *pn = INF; *dn = 0; }
  return 1;
}

static void numbers(int fox, u64 geese, int fox_to_move, u64 *pn, u64 *dn) {
  Entry *e = lookup(mkkey(fox, geese, fox_to_move), 0);
  int count;
  if (e) { *pn = e->pn; *dn = e->dn; return; }
  if (ended(fox, geese, fox_to_move, pn, dn, &count)) {
    e = lookup(mkkey(fox, geese, fox_to_move), 1); e->pn = *pn; e->dn = *dn; return;
  }
  if (fox_to_move) { *pn = count; *dn = 1; } else { *pn = 1; *dn = count; }
}

static inline u64 sat(u64 x) { return x >= INF ? INF - 1 : x; }

static void search(int fox, u64 geese, int fox_to_move, u64 pl, u64 dl);

/* df-pn's multiple iterative deepening at one position; its work is added to its entry. */
static void mid(int fox, u64 geese, int fox_to_move, u64 pl, u64 dl) {
  u64 before = nodes;
  search(fox, geese, fox_to_move, pl, dl);
  Entry *e = lookup(mkkey(fox, geese, fox_to_move), 0);
  if (e) { u64 w = (u64)e->work + (nodes - before); e->work = w > 0xFFFFFFFFu ? 0xFFFFFFFFu : w; }
}

static void search(int fox, u64 geese, int fox_to_move, u64 pl, u64 dl) {
  Move m[MAXM];
  u64 cp[MAXM], cd[MAXM];
  if (++nodes > budget) return;
  if (!(nodes % 100000000)) {
    Entry *r = lookup(root_key, 0);
    fprintf(stderr, "%llu positions, %llu kept; start: proof %llu, disproof %llu\n",
            (unsigned long long)nodes, (unsigned long long)used, (unsigned long long)(r ? r->pn : 0),
            (unsigned long long)(r ? r->dn : 0));
  }
  int n = moves(fox, geese, fox_to_move, m);
  for (;;) {
    u64 pn, dn, first = INF + 1, second = INF;
    int best = 0;
    u64 sum = 0;
    for (int i = 0; i < n; i++) {
      numbers(m[i].fox, m[i].geese, !fox_to_move, &cp[i], &cd[i]);
      u64 mine = fox_to_move ? cd[i] : cp[i], theirs = fox_to_move ? cp[i] : cd[i];
      sum = theirs >= INF ? INF : sum + theirs;
      if (sum > INF) sum = INF;
      if (mine < first) { second = first; first = mine; best = i; }
      else if (mine < second) second = mine;
    }
    if (second > INF) second = INF;
    u64 total = sum >= INF ? INF : sum;
    if (fox_to_move) { pn = total; dn = first; } else { pn = first; dn = total; }
    Entry *e = lookup(mkkey(fox, geese, fox_to_move), 1);
    e->pn = pn; e->dn = dn;
    if (pn == 0 || dn == 0 || pn >= pl || dn >= dl || nodes > budget) return;
    u64 tight = second >= INF ? INF : second + second / 4 + 1;   /* 1 + EPS */
    if (fox_to_move)
      mid(m[best].fox, m[best].geese, 0, sat(pl - pn + cp[best]), dl < tight ? dl : tight);
    else
      mid(m[best].fox, m[best].geese, 1, pl < tight ? pl : tight, sat(dl - dn + cd[best]));
  }
}

static int proven(int fox, u64 geese, int fox_to_move) {
  Entry *e = lookup(mkkey(fox, geese, fox_to_move), 0);
  u64 pn, dn;
  int count;
  if (e) return e->pn == 0;
  return ended(fox, geese, fox_to_move, &pn, &dn, &count) && pn == 0;
}

static void prove_again(int fox, u64 geese, int fox_to_move) {
  budget = nodes + 4000000000ULL;
  mid(fox, geese, fox_to_move, INF, INF);
  if (!proven(fox, geese, fox_to_move)) { fprintf(stderr, "a proven position lost\n"); exit(4); }
}

/* Write the proof tree: at the Geese's positions the proven move whose subtree took the least
 * work (a smaller tree), at the Fox's every reply. */
static u64 written;
static void walk(int fox, u64 geese, int fox_to_move, FILE *out) {
  Move m[MAXM];
  u64 pn, dn;
  int count;
  if (ended(fox, geese, fox_to_move, &pn, &dn, &count)) {
    if (pn != 0) { fprintf(stderr, "the proof tree reaches a lost end\n"); exit(4); }
    return;
  }
  if (!proven(fox, geese, fox_to_move)) prove_again(fox, geese, fox_to_move);
  Entry *e = lookup(mkkey(fox, geese, fox_to_move), 0);
  if (e->dn == SEEN) return;
  e->dn = SEEN;
  int n = moves(fox, geese, fox_to_move, m);
  if (fox_to_move) { for (int i = 0; i < n; i++) walk(m[i].fox, m[i].geese, 0, out); return; }
  for (int tries = 0; tries < 2; tries++) {
    int pick = -1;
    uint32_t least = 0xFFFFFFFFu;
    for (int i = 0; i < n; i++) {
      if (!proven(m[i].fox, m[i].geese, 1)) continue;
      Entry *c = lookup(mkkey(m[i].fox, m[i].geese, 1), 0);
      uint32_t w = c ? c->work : 0;
      if (pick < 0 || w < least) { pick = i; least = w; }
    }
    if (pick >= 0) {
      fprintf(out, "%d %llu %d %d\n", fox, (unsigned long long)geese, m[pick].from, m[pick].to);
      written++;
      walk(m[pick].fox, m[pick].geese, 1, out);
      return;
    }
    e->dn = INF;
    prove_again(fox, geese, 0);
    lookup(mkkey(fox, geese, 0), 0)->dn = SEEN;
  }
  fprintf(stderr, "no proven move at a proven position\n"); exit(5);
}

int main(int argc, char **argv) {
  if (argc != 5 && argc != 7) {
    fprintf(stderr, "usage: whole_game_proof TABLE_BITS NODES NEAR OUT.txt [FOX GEESE]\n");
    return 2;
  }
  int fox = argc == 7 ? atoi(argv[5]) : START_FOX;
  u64 geese = argc == 7 ? strtoull(argv[6], 0, 10) : START_GEESE;
  int bits = atoi(argv[1]);
  budget = strtoull(argv[2], 0, 10);
  near_steps = atoi(argv[3]);
  for (int p = 0; p < 49; p++) {
    int c = p % 7, r = p / 7;
    if ((c >= 2 && c <= 4) || (r >= 2 && r <= 4)) ALL |= 1ULL << p;
  }
  for (int p = 0; p < 49; p++) if ((ALL >> p & 1) && (p % 7 + p / 7) % 2 == 0) EVEN |= 1ULL << p;
  NOTA = NOTG = ALL;
  for (int r = 0; r < 7; r++) { NOTA &= ~(1ULL << (r * 7)); NOTG &= ~(1ULL << (r * 7 + 6)); }
  for (int p = 0; p < 49; p++)
    for (int j = 0; j < 6 && GSTEPS[p][j] >= 0; j++)
      if (GSTEPS[p][j] / 7 == p / 7) SIDEWAYS |= 1ULL << p;
  for (int p = 0; p < 49; p++) {
    u64 near = 1ULL << p;
    for (int d = 0; d < near_steps; d++) {
      u64 grown = near;
      for (int q = 0; q < 49; q++) if (near >> q & 1)
        for (int j = 0; j < 9 && STEPS[q][j] >= 0; j++) grown |= 1ULL << STEPS[q][j];
      near = grown;
    }
    NEARMASK[p] = near;
  }
  for (int v = 0; v < 128; v++)
    for (int c = 0; c < 7; c++) if (v >> c & 1) REVERSED[v] |= 1 << (6 - c);
  tmask = (1ULL << bits) - 1;
  table = calloc(tmask + 1, sizeof(Entry));
  if (!table) { fprintf(stderr, "no memory for 2^%d positions\n", bits); return 3; }
  root_key = mkkey(fox, geese, 0);
  mid(fox, geese, 0, INF, INF);
  Entry *r = lookup(root_key, 0);
  printf("start: proof %llu, disproof %llu, %llu positions, %llu table collections\n",
         (unsigned long long)r->pn, (unsigned long long)r->dn, (unsigned long long)nodes, (unsigned long long)collections);
  if (r->pn != 0) {
    printf(r->dn == 0 ? "disproved\n" : "not settled within the budget\n");
    return 0;
  }
  FILE *out = fopen(argv[4], "w");
  if (!out) { perror(argv[4]); return 3; }
  walk(fox, geese, 0, out);
  fclose(out);
  printf("proof tree: %llu positions where the Geese choose\n", (unsigned long long)written);
  return 0;
}

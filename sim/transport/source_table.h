/*
 * source_table.h — a rank's buckets of posted receives or unexpected messages, by (context,
 * source) key (sim/transport/p2p.c, "posted receives").
 *
 * Every message to a rank that receives from many sources at once (a linear Alltoall, the root
 * of a gather) looks its source up here, and every receive matched empties a bucket; with
 * GLib's hash table that was 12 % of a linear Alltoall's time at 1024 ranks, each lookup
 * reading the hash, the key through its pointer and the value from three arrays and calling two
 * functions. Here a key and its value share one slot: open addressing, linear probing, entries
 * removed by moving later ones of the same run back (no tombstones), at most half full.
 *
 * Nothing is ever read in slot order where it could reach an output: whoever walks the table
 * (source_table_next) sorts what it finds.
 */
#ifndef COLLSIM_TRANSPORT_SOURCE_TABLE_H
#define COLLSIM_TRANSPORT_SOURCE_TABLE_H

#include <glib.h>

struct source_slot {
    gint64 key;
    gpointer value; /* NULL: a free slot */
};

struct source_table {
    struct source_slot *slots; /* NULL until the first insertion */
    guint32 mask;              /* slots - 1, a power of two less one */
    guint32 count;
};

static inline guint32
source_table_home(const struct source_table *table, gint64 key)
{
    /* Fibonacci hashing: keys differing in their low bits (neighbouring sources) spread */
    return (guint32)(((guint64)key * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32) &
           table->mask;
}

/* The value stored for `key`, or NULL. */
static inline gpointer
source_table_lookup(const struct source_table *table, gint64 key)
{
    if (table->slots == NULL)
        return NULL;
    for (guint32 i = source_table_home(table, key);; i = (i + 1) & table->mask) {
        const struct source_slot *slot = &table->slots[i];
        if (slot->value == NULL)
            return NULL;
        if (slot->key == key)
            return slot->value;
    }
}

static inline void source_table_insert(struct source_table *table, gint64 key, gpointer value);

static inline void
source_table_grow(struct source_table *table)
{
    struct source_slot *old = table->slots;
    guint32 old_size = old != NULL ? table->mask + 1 : 0;
    guint32 size = old_size > 0 ? 2 * old_size : 16;
    table->slots = g_new0(struct source_slot, size);
    table->mask = size - 1;
    table->count = 0;
    for (guint32 i = 0; i < old_size; i++)
        if (old[i].value != NULL)
            source_table_insert(table, old[i].key, old[i].value);
    g_free(old);
}

/* Store `value` (not NULL) for `key`, which the table does not hold. */
static inline void
source_table_insert(struct source_table *table, gint64 key, gpointer value)
{
    if (table->slots == NULL || 2 * (table->count + 1) > table->mask + 1)
        source_table_grow(table);
    guint32 i = source_table_home(table, key);
    while (table->slots[i].value != NULL)
        i = (i + 1) & table->mask;
    table->slots[i] = (struct source_slot){key, value};
    table->count++;
}

/* Take `key` out; its value, or NULL if it was not there. */
static inline gpointer
source_table_remove(struct source_table *table, gint64 key)
{
    if (table->slots == NULL)
        return NULL;
    guint32 i = source_table_home(table, key);
    while (table->slots[i].value != NULL && table->slots[i].key != key)
        i = (i + 1) & table->mask;
    gpointer value = table->slots[i].value;
    if (value == NULL)
        return NULL;
    /* close the gap: a later entry of the run whose home is not between the gap and it moves
     * into the gap, which moves to where it was */
    for (guint32 j = (i + 1) & table->mask; table->slots[j].value != NULL;
         j = (j + 1) & table->mask) {
        guint32 home = source_table_home(table, table->slots[j].key);
        gboolean stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            table->slots[i] = table->slots[j];
            i = j;
        }
    }
    table->slots[i] = (struct source_slot){0, NULL};
    table->count--;
    return value;
}

/* Walk the values: *at starts at 0; NULL once past the last. */
static inline gpointer
source_table_next(const struct source_table *table, guint32 *at)
{
    if (table->slots == NULL)
        return NULL;
    while (*at <= table->mask) {
        gpointer value = table->slots[(*at)++].value;
        if (value != NULL)
            return value;
    }
    return NULL;
}

/* Free every value with `free_value` and the slots; the table is empty again. */
static inline void
source_table_clear(struct source_table *table, GDestroyNotify free_value)
{
    guint32 at = 0;
    gpointer value;
    while (free_value != NULL && (value = source_table_next(table, &at)) != NULL)
        free_value(value);
    g_free(table->slots);
    *table = (struct source_table){NULL, 0, 0};
}

#endif

/*
 * coll_util.c — scratch buffers, local copies and index arithmetic for collective algorithms.
 * Standard MPI calls only.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_util.h"

/* TRUE when info says collsim's sizes-only mode ("collsim_payload" = "none"; a real MPI
 * never sets that key). */
static int
sizes_only(MPI_Info info)
{
    char value[8];
    int flag = 0;
    if (MPI_Info_get(info, "collsim_payload", (int)sizeof value - 1, value, &flag) != MPI_SUCCESS)
        return 0;
    return flag && strcmp(value, "none") == 0;
}

/*
 * `bytes` of temporary payload into *mem, to be released with free(*mem); the address of the
 * bytes, NULL when out of memory. collsim's sizes-only runs (payload none) move no data:
 * there MPI_Comm_get_info says "collsim_payload" = "none" (src/runtime.h), and MPI_Alloc_mem
 * given that info returns shared scratch that nobody frees, so *mem stays NULL and the
 * callers' free(*mem) does nothing; memory stays O(1) per rank whatever the sizes. Standard
 * calls only: a real MPI has no such key, and this is malloc.
 */
static void *
tmp_bytes(size_t bytes, void **mem)
{
    MPI_Info info;
    void *scratch = NULL;

    *mem = NULL;
    if (MPI_Comm_get_info(MPI_COMM_SELF, &info) == MPI_SUCCESS) {
        if (sizes_only(info) &&
            MPI_Alloc_mem((MPI_Aint)(bytes > 0 ? bytes : 1), info, &scratch) != MPI_SUCCESS)
            scratch = NULL;
        MPI_Info_free(&info);
    }
    if (scratch != NULL)
        return scratch;
    *mem = malloc(bytes > 0 ? bytes : 1);
    return *mem;
}

/* Below this, a local copy costs less than asking whether it is needed. */
#define COPY_ASK_BYTES 4096

/* TRUE in a collsim sizes-only run, where a local copy moves nothing anyone reads (the buffers
 * are shared scratch, no result is checked, and a local copy has no simulated cost). */
static int
copies_skipped(size_t bytes)
{
    MPI_Info info;
    int skip = 0;
    if (bytes >= COPY_ASK_BYTES && MPI_Comm_get_info(MPI_COMM_SELF, &info) == MPI_SUCCESS) {
        skip = sizes_only(info);
        MPI_Info_free(&info);
    }
    return skip;
}

void *
coll_tmp_alloc(MPI_Aint count, MPI_Datatype dt, void **mem)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    *mem = NULL;
    if (count <= 0)
        return NULL;
    MPI_Type_get_extent(dt, &lb, &extent);
    MPI_Type_get_true_extent(dt, &true_lb, &true_extent);
    size_t bytes = (size_t)true_extent + (size_t)extent * (size_t)(count - 1);
    char *base = tmp_bytes(bytes, mem);
    if (base == NULL)
        return NULL;
    return base - true_lb;
}

int
coll_layout_of(MPI_Datatype dt, struct coll_layout *layout)
{
    MPI_Aint lb, true_extent;
    int rc = MPI_Type_size(dt, &layout->size);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_get_extent(dt, &lb, &layout->extent);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_get_true_extent(dt, &layout->true_lb, &true_extent);
    layout->dt = dt;
    layout->contiguous =
        rc == MPI_SUCCESS && true_extent == layout->size && layout->extent == layout->size;
    return rc;
}

int
coll_copy(const void *src, void *dst, int count, MPI_Datatype dt)
{
    if (count == 0 || src == dst)
        return MPI_SUCCESS;
    struct coll_layout layout;
    coll_layout_of(dt, &layout);
    return coll_copy_laid(src, dst, count, &layout);
}

int
coll_copy_laid(const void *src, void *dst, int count, const struct coll_layout *layout)
{
    if (count == 0 || src == dst)
        return MPI_SUCCESS;
    if (layout->contiguous) {
        /* one block of count * size bytes starting at the true lower bound */
        size_t bytes = (size_t)layout->size * (size_t)count;
        if (copies_skipped(bytes))
            return MPI_SUCCESS;
        memcpy((char *)dst + layout->true_lb, (const char *)src + layout->true_lb, bytes);
        return MPI_SUCCESS;
    }
    /* non-contiguous: through a packed image */
    MPI_Datatype dt = layout->dt;
    int packed = 0, position = 0, rc;
    rc = MPI_Pack_size(count, dt, MPI_COMM_SELF, &packed);
    if (rc != MPI_SUCCESS)
        return rc;
    void *tmp = malloc(packed > 0 ? (size_t)packed : 1);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    rc = MPI_Pack(src, count, dt, tmp, packed, &position, MPI_COMM_SELF);
    if (rc == MPI_SUCCESS) {
        position = 0;
        rc = MPI_Unpack(tmp, packed, &position, dst, count, dt, MPI_COMM_SELF);
    }
    free(tmp);
    return rc;
}

int
coll_in_place_copy(const void *recvbuf, int count, MPI_Datatype dt, const void **sendbuf,
                   void **mem)
{
    *mem = NULL;
    if (count == 0) {
        *sendbuf = recvbuf;
        return MPI_SUCCESS;
    }
    void *copy = coll_tmp_alloc(count, dt, mem);
    if (copy == NULL)
        return MPI_ERR_NO_MEM;
    *sendbuf = copy;
    return coll_copy(recvbuf, copy, count, dt);
}

int
coll_in_place_copy_blocks(const void *recvbuf, int size, const int counts[], const int displs[],
                          MPI_Aint unit, const MPI_Datatype types[], MPI_Datatype type,
                          const void **sendbuf, void **mem)
{
    MPI_Aint lo = 0, hi = 0, lb, extent, true_lb, true_extent;
    int any = 0;
    *mem = NULL;
    *sendbuf = recvbuf;
    /* the byte span the blocks cover, relative to recvbuf */
    for (int i = 0; i < size; i++) {
        MPI_Datatype t = types != NULL ? types[i] : type;
        if (counts[i] == 0)
            continue;
        MPI_Type_get_extent(t, &lb, &extent);
        MPI_Type_get_true_extent(t, &true_lb, &true_extent);
        MPI_Aint at = (MPI_Aint)displs[i] * unit + true_lb;
        MPI_Aint last = (MPI_Aint)(counts[i] - 1) * extent;
        MPI_Aint first = at + (last < 0 ? last : 0);
        MPI_Aint end = at + (last > 0 ? last : 0) + true_extent;
        if (!any || first < lo)
            lo = first;
        if (!any || end > hi)
            hi = end;
        any = 1;
    }
    if (!any)
        return MPI_SUCCESS;
    char *base = tmp_bytes(hi > lo ? (size_t)(hi - lo) : 1, mem);
    if (base == NULL)
        return MPI_ERR_NO_MEM;
    char *copy = base - lo;
    for (int i = 0; i < size; i++) {
        MPI_Datatype t = types != NULL ? types[i] : type;
        MPI_Aint at = (MPI_Aint)displs[i] * unit;
        int rc = coll_copy((const char *)recvbuf + at, copy + at, counts[i], t);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    *sendbuf = copy;
    return MPI_SUCCESS;
}

void *
coll_item(void *buf, MPI_Aint index, MPI_Datatype dt)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(dt, &lb, &extent);
    return (char *)buf + index * extent;
}

const void *
coll_citem(const void *buf, MPI_Aint index, MPI_Datatype dt)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(dt, &lb, &extent);
    return (const char *)buf + index * extent;
}

int
coll_pof2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

int
coll_ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

int
coll_copy_typed(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount,
                MPI_Datatype rtype)
{
    int rc, ssize, rsize, packed, position = 0;
    long long bytes;
    void *tmp;

    if (stype == rtype && scount == rcount)
        return coll_copy(src, dst, scount, stype);
    rc = MPI_Type_size(stype, &ssize);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_size(rtype, &rsize);
    if (rc != MPI_SUCCESS)
        return rc;
    bytes = (long long)scount * ssize;
    if (bytes == 0)
        return MPI_SUCCESS;
    if (rsize == 0 || bytes % rsize != 0 || bytes / rsize > rcount)
        return MPI_ERR_TRUNCATE;
    rc = MPI_Pack_size(scount, stype, MPI_COMM_SELF, &packed);
    if (rc != MPI_SUCCESS)
        return rc;
    tmp = malloc(packed > 0 ? (size_t)packed : 1);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    rc = MPI_Pack(src, scount, stype, tmp, packed, &position, MPI_COMM_SELF);
    if (rc == MPI_SUCCESS) {
        packed = position;
        position = 0;
        rc = MPI_Unpack(tmp, packed, &position, dst, (int)(bytes / rsize), rtype, MPI_COMM_SELF);
    }
    free(tmp);
    return rc;
}

int
coll_sendrecv_nonempty(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                       int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int source, int recvtag, MPI_Comm comm)
{
    int rc, ssize = 0, rsize = 0;

    if (sendcount > 0) {
        rc = MPI_Type_size(sendtype, &ssize);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (recvcount > 0) {
        rc = MPI_Type_size(recvtype, &rsize);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (ssize > 0 && rsize > 0)
        return MPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                            recvtype, source, recvtag, comm, MPI_STATUS_IGNORE);
    if (ssize > 0)
        return MPI_Send(sendbuf, sendcount, sendtype, dest, sendtag, comm);
    if (rsize > 0)
        return MPI_Recv(recvbuf, recvcount, recvtype, source, recvtag, comm, MPI_STATUS_IGNORE);
    return MPI_SUCCESS;
}

/*
 * every_function.c — names every function of MPI 3.1's C binding (the standard's Annex A.2,
 * chapter by chapter; the ten MPI-1 functions MPI-3.0 removed are not in it), so that
 * tests/exec/test_foreign.sh can check that collsim's mpi.h declares each one: compiled with
 * -Werror=implicit-function-declaration, a function the header lacks is an error. It is only
 * compiled, never linked: collsim does not define all of them (`collsim exec` refuses a
 * program that needs one it lacks, by name).
 */
#include "mpi.h"

typedef void (*any_function)(void);

#define F(name) (any_function) name

const any_function mpi31_functions[] = {
    /* chapter 3, point-to-point (40) */
    F(MPI_Bsend), F(MPI_Bsend_init), F(MPI_Buffer_attach), F(MPI_Buffer_detach), F(MPI_Cancel),
    F(MPI_Get_count), F(MPI_Ibsend), F(MPI_Improbe), F(MPI_Imrecv), F(MPI_Iprobe), F(MPI_Irecv),
    F(MPI_Irsend), F(MPI_Isend), F(MPI_Issend), F(MPI_Mprobe), F(MPI_Mrecv), F(MPI_Probe),
    F(MPI_Recv), F(MPI_Recv_init), F(MPI_Request_free), F(MPI_Request_get_status), F(MPI_Rsend),
    F(MPI_Rsend_init), F(MPI_Send), F(MPI_Send_init), F(MPI_Sendrecv), F(MPI_Sendrecv_replace),
    F(MPI_Ssend), F(MPI_Ssend_init), F(MPI_Start), F(MPI_Startall), F(MPI_Test),
    F(MPI_Test_cancelled), F(MPI_Testall), F(MPI_Testany), F(MPI_Testsome), F(MPI_Wait),
    F(MPI_Waitall), F(MPI_Waitany), F(MPI_Waitsome),
    /* chapter 4, datatypes (33) */
    F(MPI_Get_address), F(MPI_Get_elements), F(MPI_Get_elements_x), F(MPI_Pack),
    F(MPI_Pack_external), F(MPI_Pack_external_size), F(MPI_Pack_size), F(MPI_Type_commit),
    F(MPI_Type_contiguous), F(MPI_Type_create_darray), F(MPI_Type_create_hindexed),
    F(MPI_Type_create_hindexed_block), F(MPI_Type_create_hvector), F(MPI_Type_create_indexed_block),
    F(MPI_Type_create_resized), F(MPI_Type_create_struct), F(MPI_Type_create_subarray),
    F(MPI_Type_dup), F(MPI_Type_free), F(MPI_Type_get_contents), F(MPI_Type_get_envelope),
    F(MPI_Type_get_extent), F(MPI_Type_get_extent_x), F(MPI_Type_get_true_extent),
    F(MPI_Type_get_true_extent_x), F(MPI_Type_indexed), F(MPI_Type_size), F(MPI_Type_size_x),
    F(MPI_Type_vector), F(MPI_Unpack), F(MPI_Unpack_external), F(MPI_Aint_add), F(MPI_Aint_diff),
    /* chapter 5, collective communication (38) */
    F(MPI_Allgather), F(MPI_Allgatherv), F(MPI_Allreduce), F(MPI_Alltoall), F(MPI_Alltoallv),
    F(MPI_Alltoallw), F(MPI_Barrier), F(MPI_Bcast), F(MPI_Exscan), F(MPI_Gather), F(MPI_Gatherv),
    F(MPI_Iallgather), F(MPI_Iallgatherv), F(MPI_Iallreduce), F(MPI_Ialltoall), F(MPI_Ialltoallv),
    F(MPI_Ialltoallw), F(MPI_Ibarrier), F(MPI_Ibcast), F(MPI_Iexscan), F(MPI_Igather),
    F(MPI_Igatherv), F(MPI_Ireduce), F(MPI_Ireduce_scatter), F(MPI_Ireduce_scatter_block),
    F(MPI_Iscan), F(MPI_Iscatter), F(MPI_Iscatterv), F(MPI_Op_commutative), F(MPI_Op_create),
    F(MPI_Op_free), F(MPI_Reduce), F(MPI_Reduce_local), F(MPI_Reduce_scatter),
    F(MPI_Reduce_scatter_block), F(MPI_Scan), F(MPI_Scatter), F(MPI_Scatterv),
    /* chapter 6, groups, contexts, communicators and caching (52) */
    F(MPI_Comm_compare), F(MPI_Comm_create), F(MPI_Comm_create_group), F(MPI_Comm_create_keyval),
    F(MPI_Comm_delete_attr), F(MPI_Comm_dup), F(MPI_Comm_dup_with_info), F(MPI_Comm_free),
    F(MPI_Comm_free_keyval), F(MPI_Comm_get_attr), F(MPI_Comm_get_info), F(MPI_Comm_get_name),
    F(MPI_Comm_group), F(MPI_Comm_idup), F(MPI_Comm_rank), F(MPI_Comm_remote_group),
    F(MPI_Comm_remote_size), F(MPI_Comm_set_attr), F(MPI_Comm_set_info), F(MPI_Comm_set_name),
    F(MPI_Comm_size), F(MPI_Comm_split), F(MPI_Comm_split_type), F(MPI_Comm_test_inter),
    F(MPI_Group_compare), F(MPI_Group_difference), F(MPI_Group_excl), F(MPI_Group_free),
    F(MPI_Group_incl), F(MPI_Group_intersection), F(MPI_Group_range_excl), F(MPI_Group_range_incl),
    F(MPI_Group_rank), F(MPI_Group_size), F(MPI_Group_translate_ranks), F(MPI_Group_union),
    F(MPI_Intercomm_create), F(MPI_Intercomm_merge), F(MPI_Type_create_keyval),
    F(MPI_Type_delete_attr), F(MPI_Type_free_keyval), F(MPI_Type_get_attr), F(MPI_Type_get_name),
    F(MPI_Type_set_attr), F(MPI_Type_set_name), F(MPI_Win_create_keyval), F(MPI_Win_delete_attr),
    F(MPI_Win_free_keyval), F(MPI_Win_get_attr), F(MPI_Win_get_name), F(MPI_Win_set_attr),
    F(MPI_Win_set_name),
    /* chapter 7, process topologies (30) */
    F(MPI_Cart_coords), F(MPI_Cart_create), F(MPI_Cart_get), F(MPI_Cart_map), F(MPI_Cart_rank),
    F(MPI_Cart_shift), F(MPI_Cart_sub), F(MPI_Cartdim_get), F(MPI_Dims_create),
    F(MPI_Dist_graph_create), F(MPI_Dist_graph_create_adjacent), F(MPI_Dist_graph_neighbors),
    F(MPI_Dist_graph_neighbors_count), F(MPI_Graph_create), F(MPI_Graph_get), F(MPI_Graph_map),
    F(MPI_Graph_neighbors), F(MPI_Graph_neighbors_count), F(MPI_Graphdims_get),
    F(MPI_Ineighbor_allgather), F(MPI_Ineighbor_allgatherv), F(MPI_Ineighbor_alltoall),
    F(MPI_Ineighbor_alltoallv), F(MPI_Ineighbor_alltoallw), F(MPI_Neighbor_allgather),
    F(MPI_Neighbor_allgatherv), F(MPI_Neighbor_alltoall), F(MPI_Neighbor_alltoallv),
    F(MPI_Neighbor_alltoallw), F(MPI_Topo_test),
    /* chapter 8, MPI environmental management (30) */
    F(MPI_Abort), F(MPI_Add_error_class), F(MPI_Add_error_code), F(MPI_Add_error_string),
    F(MPI_Alloc_mem), F(MPI_Comm_call_errhandler), F(MPI_Comm_create_errhandler),
    F(MPI_Comm_get_errhandler), F(MPI_Comm_set_errhandler), F(MPI_Errhandler_free),
    F(MPI_Error_class), F(MPI_Error_string), F(MPI_File_call_errhandler),
    F(MPI_File_create_errhandler), F(MPI_File_get_errhandler), F(MPI_File_set_errhandler),
    F(MPI_Finalize), F(MPI_Finalized), F(MPI_Free_mem), F(MPI_Get_library_version),
    F(MPI_Get_processor_name), F(MPI_Get_version), F(MPI_Init), F(MPI_Initialized),
    F(MPI_Win_call_errhandler), F(MPI_Win_create_errhandler), F(MPI_Win_get_errhandler),
    F(MPI_Win_set_errhandler), F(MPI_Wtick), F(MPI_Wtime),
    /* chapter 9, the Info object (9) */
    F(MPI_Info_create), F(MPI_Info_delete), F(MPI_Info_dup), F(MPI_Info_free), F(MPI_Info_get),
    F(MPI_Info_get_nkeys), F(MPI_Info_get_nthkey), F(MPI_Info_get_valuelen), F(MPI_Info_set),
    /* chapter 10, process creation and management (12) */
    F(MPI_Close_port), F(MPI_Comm_accept), F(MPI_Comm_connect), F(MPI_Comm_disconnect),
    F(MPI_Comm_get_parent), F(MPI_Comm_join), F(MPI_Comm_spawn), F(MPI_Comm_spawn_multiple),
    F(MPI_Lookup_name), F(MPI_Open_port), F(MPI_Publish_name), F(MPI_Unpublish_name),
    /* chapter 11, one-sided communications (36) */
    F(MPI_Accumulate), F(MPI_Compare_and_swap), F(MPI_Fetch_and_op), F(MPI_Get),
    F(MPI_Get_accumulate), F(MPI_Put), F(MPI_Raccumulate), F(MPI_Rget), F(MPI_Rget_accumulate),
    F(MPI_Rput), F(MPI_Win_allocate), F(MPI_Win_allocate_shared), F(MPI_Win_attach),
    F(MPI_Win_complete), F(MPI_Win_create), F(MPI_Win_create_dynamic), F(MPI_Win_detach),
    F(MPI_Win_fence), F(MPI_Win_flush), F(MPI_Win_flush_all), F(MPI_Win_flush_local),
    F(MPI_Win_flush_local_all), F(MPI_Win_free), F(MPI_Win_get_group), F(MPI_Win_get_info),
    F(MPI_Win_lock), F(MPI_Win_lock_all), F(MPI_Win_post), F(MPI_Win_set_info),
    F(MPI_Win_shared_query), F(MPI_Win_start), F(MPI_Win_sync), F(MPI_Win_test), F(MPI_Win_unlock),
    F(MPI_Win_unlock_all), F(MPI_Win_wait),
    /* chapter 12, external interfaces (8) */
    F(MPI_Grequest_complete), F(MPI_Grequest_start), F(MPI_Init_thread), F(MPI_Is_thread_main),
    F(MPI_Query_thread), F(MPI_Status_set_cancelled), F(MPI_Status_set_elements),
    F(MPI_Status_set_elements_x),
    /* chapter 13, I/O (56) */
    F(MPI_File_close), F(MPI_File_delete), F(MPI_File_get_amode), F(MPI_File_get_atomicity),
    F(MPI_File_get_byte_offset), F(MPI_File_get_group), F(MPI_File_get_info),
    F(MPI_File_get_position), F(MPI_File_get_position_shared), F(MPI_File_get_size),
    F(MPI_File_get_type_extent), F(MPI_File_get_view), F(MPI_File_iread), F(MPI_File_iread_all),
    F(MPI_File_iread_at), F(MPI_File_iread_at_all), F(MPI_File_iread_shared), F(MPI_File_iwrite),
    F(MPI_File_iwrite_all), F(MPI_File_iwrite_at), F(MPI_File_iwrite_at_all),
    F(MPI_File_iwrite_shared), F(MPI_File_open), F(MPI_File_preallocate), F(MPI_File_read),
    F(MPI_File_read_all), F(MPI_File_read_all_begin), F(MPI_File_read_all_end), F(MPI_File_read_at),
    F(MPI_File_read_at_all), F(MPI_File_read_at_all_begin), F(MPI_File_read_at_all_end),
    F(MPI_File_read_ordered), F(MPI_File_read_ordered_begin), F(MPI_File_read_ordered_end),
    F(MPI_File_read_shared), F(MPI_File_seek), F(MPI_File_seek_shared), F(MPI_File_set_atomicity),
    F(MPI_File_set_info), F(MPI_File_set_size), F(MPI_File_set_view), F(MPI_File_sync),
    F(MPI_File_write), F(MPI_File_write_all), F(MPI_File_write_all_begin),
    F(MPI_File_write_all_end), F(MPI_File_write_at), F(MPI_File_write_at_all),
    F(MPI_File_write_at_all_begin), F(MPI_File_write_at_all_end), F(MPI_File_write_ordered),
    F(MPI_File_write_ordered_begin), F(MPI_File_write_ordered_end), F(MPI_File_write_shared),
    F(MPI_Register_datarep),
    /* chapter 14, tool support (29) */
    F(MPI_Pcontrol), F(MPI_T_category_changed), F(MPI_T_category_get_categories),
    F(MPI_T_category_get_cvars), F(MPI_T_category_get_info), F(MPI_T_category_get_num),
    F(MPI_T_category_get_pvars), F(MPI_T_cvar_get_info), F(MPI_T_cvar_get_num),
    F(MPI_T_cvar_handle_alloc), F(MPI_T_cvar_handle_free), F(MPI_T_cvar_read), F(MPI_T_cvar_write),
    F(MPI_T_enum_get_info), F(MPI_T_enum_get_item), F(MPI_T_finalize), F(MPI_T_init_thread),
    F(MPI_T_pvar_get_info), F(MPI_T_pvar_get_num), F(MPI_T_pvar_handle_alloc),
    F(MPI_T_pvar_handle_free), F(MPI_T_pvar_read), F(MPI_T_pvar_readreset), F(MPI_T_pvar_reset),
    F(MPI_T_pvar_session_create), F(MPI_T_pvar_session_free), F(MPI_T_pvar_start),
    F(MPI_T_pvar_stop), F(MPI_T_pvar_write),
    /* chapter 15, deprecated functions (5) */
    F(MPI_Attr_delete), F(MPI_Attr_get), F(MPI_Attr_put), F(MPI_Keyval_create), F(MPI_Keyval_free),
    /* chapter 17, language bindings (26) */
    F(MPI_Comm_c2f), F(MPI_Comm_f2c), F(MPI_Errhandler_c2f), F(MPI_Errhandler_f2c), F(MPI_File_c2f),
    F(MPI_File_f2c), F(MPI_Group_c2f), F(MPI_Group_f2c), F(MPI_Info_c2f), F(MPI_Info_f2c),
    F(MPI_Message_c2f), F(MPI_Message_f2c), F(MPI_Op_c2f), F(MPI_Op_f2c), F(MPI_Request_c2f),
    F(MPI_Request_f2c), F(MPI_Status_c2f), F(MPI_Status_f2c), F(MPI_Type_c2f), F(MPI_Type_f2c),
    F(MPI_Win_c2f), F(MPI_Win_f2c), F(MPI_Type_create_f90_complex), F(MPI_Type_create_f90_integer),
    F(MPI_Type_create_f90_real), F(MPI_Type_match_size),
};

/* 404 functions */
const unsigned mpi31_function_count = sizeof mpi31_functions / sizeof mpi31_functions[0];

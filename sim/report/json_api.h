/*
 * json_api.h — json-glib, loaded the first time JSON is read or written.
 *
 * libcollsim and collsim are not linked with json-glib: it brings GObject and GIO with it, and
 * GIO five more libraries (libmount, libselinux, libblkid, libffi, zlib), about 2.7 ms of every
 * process start on the development VM (a program linked with GLib, Boost.Context and
 * libstdc++ starts in 5.8 ms, with json-glib too in 8.5 ms), while most runs write a table or
 * a CSV file. Code that reads or writes JSON includes this header instead of json-glib's and
 * calls json-glib as usual: each function it uses is defined below as the entry of a table
 * that json_api() fills from libjson-glib-1.0.so.0 at the first call (g_object_unref too,
 * which only its objects need here). A function not in JSON_API_FUNCTIONS is called directly
 * and needs json-glib linked: the build fails to link instead of misbehaving.
 */
#ifndef COLLSIM_REPORT_JSON_API_H
#define COLLSIM_REPORT_JSON_API_H

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define JSON_API_FUNCTIONS(X) \
    X(g_object_unref) \
    X(json_array_add_element) \
    X(json_array_add_object_element) \
    X(json_array_add_string_element) \
    X(json_array_get_element) \
    X(json_array_get_length) \
    X(json_array_new) \
    X(json_array_ref) \
    X(json_array_unref) \
    X(json_builder_begin_object) \
    X(json_builder_end_object) \
    X(json_builder_get_root) \
    X(json_builder_new) \
    X(json_builder_set_member_name) \
    X(json_generator_new) \
    X(json_generator_set_indent) \
    X(json_generator_set_pretty) \
    X(json_generator_set_root) \
    X(json_generator_to_data) \
    X(json_node_alloc) \
    X(json_node_copy) \
    X(json_node_get_array) \
    X(json_node_get_int) \
    X(json_node_get_node_type) \
    X(json_node_get_object) \
    X(json_node_get_string) \
    X(json_node_get_value_type) \
    X(json_node_init_object) \
    X(json_node_unref) \
    X(json_object_get_member) \
    X(json_object_get_members) \
    X(json_object_new) \
    X(json_object_set_array_member) \
    X(json_object_set_double_member) \
    X(json_object_set_int_member) \
    X(json_object_set_null_member) \
    X(json_object_set_object_member) \
    X(json_object_set_string_member) \
    X(json_object_unref) \
    X(json_parser_get_root) \
    X(json_parser_load_from_data) \
    X(json_parser_new)

struct json_api {
#define JSON_API_MEMBER(name) __typeof__(name) *name;
    JSON_API_FUNCTIONS(JSON_API_MEMBER)
#undef JSON_API_MEMBER
};

/* The table, loading json-glib at the first call. When it cannot be loaded, says so on stderr
 * and exits with status 2. */
const struct json_api *json_api(void);

#ifndef JSON_API_LOADER
#define g_object_unref (json_api()->g_object_unref)
#define json_array_add_element (json_api()->json_array_add_element)
#define json_array_add_object_element (json_api()->json_array_add_object_element)
#define json_array_add_string_element (json_api()->json_array_add_string_element)
#define json_array_get_element (json_api()->json_array_get_element)
#define json_array_get_length (json_api()->json_array_get_length)
#define json_array_new (json_api()->json_array_new)
#define json_array_ref (json_api()->json_array_ref)
#define json_array_unref (json_api()->json_array_unref)
#define json_builder_begin_object (json_api()->json_builder_begin_object)
#define json_builder_end_object (json_api()->json_builder_end_object)
#define json_builder_get_root (json_api()->json_builder_get_root)
#define json_builder_new (json_api()->json_builder_new)
#define json_builder_set_member_name (json_api()->json_builder_set_member_name)
#define json_generator_new (json_api()->json_generator_new)
#define json_generator_set_indent (json_api()->json_generator_set_indent)
#define json_generator_set_pretty (json_api()->json_generator_set_pretty)
#define json_generator_set_root (json_api()->json_generator_set_root)
#define json_generator_to_data (json_api()->json_generator_to_data)
#define json_node_alloc (json_api()->json_node_alloc)
#define json_node_copy (json_api()->json_node_copy)
#define json_node_get_array (json_api()->json_node_get_array)
#define json_node_get_int (json_api()->json_node_get_int)
#define json_node_get_node_type (json_api()->json_node_get_node_type)
#define json_node_get_object (json_api()->json_node_get_object)
#define json_node_get_string (json_api()->json_node_get_string)
#define json_node_get_value_type (json_api()->json_node_get_value_type)
#define json_node_init_object (json_api()->json_node_init_object)
#define json_node_unref (json_api()->json_node_unref)
#define json_object_get_member (json_api()->json_object_get_member)
#define json_object_get_members (json_api()->json_object_get_members)
#define json_object_new (json_api()->json_object_new)
#define json_object_set_array_member (json_api()->json_object_set_array_member)
#define json_object_set_double_member (json_api()->json_object_set_double_member)
#define json_object_set_int_member (json_api()->json_object_set_int_member)
#define json_object_set_null_member (json_api()->json_object_set_null_member)
#define json_object_set_object_member (json_api()->json_object_set_object_member)
#define json_object_set_string_member (json_api()->json_object_set_string_member)
#define json_object_unref (json_api()->json_object_unref)
#define json_parser_get_root (json_api()->json_parser_get_root)
#define json_parser_load_from_data (json_api()->json_parser_load_from_data)
#define json_parser_new (json_api()->json_parser_new)
#endif

G_END_DECLS

#endif

// onepass/ladder/select/common.cuh — what every variant of the stream-compaction teaching
// ladder (select, unique, partition) shares.
//
// A variant is a struct with
//   static constexpr const char* id;          // the registry name, e.g. "three_kernel"
//   static constexpr const char* summary;     // one line for --list and the docs
//   static constexpr bool in_place;           // accepts out == in (select and unique)
//   static constexpr bool index_predicates;   // accepts pred(item, i) as well as pred(item)
//   template <class T, class Pred = no_predicate>
//   static std::size_t workspace_bytes(index_t n);  // enough for select_if and partition
//                                                   // with Pred, and for unique
//   template <class Job>
//   static void run_unchecked(const Job& job, index_t n, T* out, T* out_rejected,
//                             index_t* count_out, workspace ws, cudaStream_t stream);
// where Job is one of the production's descriptions of what is kept
// (onepass/agent/select.cuh): select_if_job (a predicate) or unique_job (differs from the
// item before, onepass::equal_to), and T its value_type. out_rejected == nullptr is a
// select; otherwise a partition. Variants are called through run_select<Variant>(...),
// which checks what onepass::select_if / unique / partition check, in the same order and
// with the same messages (the arguments, the workspace, the memory), plus, right after
// the arguments, what the variant cannot do (in place, an index-reading predicate); all
// before anything is enqueued.
//
// The workspace's size depends on n and T only; Pred is there for the cub peer, which
// asks CUB for its sizes with a call of the same types as the one it will make, so
// that the query does not compile CUB's kernels a second time for another functor.
//
// Semantics are those of the production API (onepass/select.cuh): out[0, k) = the kept
// items in input order, *count_out = k (an index_t in device memory); a partition writes
// the rejected items to out_rejected[0, n - k), in input order too. Variants are
// workspace-style: they never allocate or synchronise.
#pragma once

#include <string>
#include <type_traits>

#include "onepass/agent/select.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/device/dispatch_select.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/common.cuh"

namespace onepass::ladder {

// The Pred of workspace_bytes<T, Pred> for a call without a predicate (unique).
struct no_predicate {};

namespace detail {
// The predicate type of a job: a select_if_job's own, else no_predicate.
template <class Job>
struct predicate_of {
  using type = no_predicate;
};
template <class T, class Pred>
struct predicate_of<onepass::detail::select_if_job<T, Pred>> {
  using type = Pred;
};

// A job whose predicate reads the item's index: pred(item, i).
template <class Job>
struct reads_index : std::false_type {};
template <class T, class Pred>
struct reads_index<onepass::detail::select_if_job<T, Pred>>
    : std::bool_constant<std::is_invocable_v<const Pred&, const T&, index_t>> {};
}  // namespace detail

// SizedFor: the Pred the caller sized the workspace with (workspace_bytes<T, SizedFor>);
// by default the job's own predicate type.
template <class Variant, class Job, class SizedFor = typename detail::predicate_of<Job>::type>
void run_select(const Job& job, index_t n, typename Job::value_type* out, typename Job::value_type* out_rejected,
                index_t* count_out, workspace ws, cudaStream_t stream) {
  using T = typename Job::value_type;
  onepass::detail::check_select_args(job.in, n, out, out_rejected, count_out);
  if (!Variant::in_place && n > 0 && out == job.in)
    throw invalid_argument("out", std::string("equals 'in'; the ") + Variant::id +
                                      " variant does not work in place (the production one, \"onepass\", does)");
  // Known at compile time: such a variant is never instantiated with such a predicate.
  if constexpr (!Variant::index_predicates && detail::reads_index<Job>::value) {
    throw invalid_argument("pred", std::string("reads the item's index (pred(item, i)), which the ") + Variant::id +
                                       " variant does not support; pass a predicate of the item alone");
  } else {
    onepass::detail::check_workspace(ws, Variant::template workspace_bytes<T, SizedFor>(n));
    onepass::detail::check_select_memory(job.in, n, out, out_rejected, count_out);
    Variant::run_unchecked(job, n, out, out_rejected, count_out, ws, stream);
  }
}

}  // namespace onepass::ladder

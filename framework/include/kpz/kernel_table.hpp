#pragma once
// One list of a puzzle's kernels gives their declarations in kpz::<puzzle>::exercise and
// kpz::<puzzle>::reference, their explicit instantiations, and a table of function pointers per
// implementation, so that a signature is written once and a runner calls `k.simple(...)` instead
// of choosing between reference::simple and exercise::simple at every call.
//
// The list is an X-macro over the execution space type (framework/puzzles/<p>/signatures.inc):
//
//   #define KPZ_CONV1D_KERNELS(KERNEL, Space)                                   \
//     /* What simple computes. */                                               \
//     KERNEL(simple, (const Space& space, int team_size, ::kpz::View<float*, Space> out))
//
// Every kernel is `template <class Space> void name(params)`; the list's Space parameter names
// the type in the parameters (a type parameter when declared, the space when instantiated).
// Comments inside the list are /* */ ones: a // comment would swallow the line continuations.
//
//   namespace kpz::conv1d { KPZ_KERNELS(KPZ_CONV1D_KERNELS) }   declarations, Kernels, kernels()
//   KPZ_INSTANTIATE_KERNELS(KPZ_CONV1D_KERNELS)                 at the end of both .cpp files

namespace kpz {
// Which implementation of a puzzle's kernels runs: the learner's or the solution.
enum class Impl { exercise, reference };
}  // namespace kpz

#define KPZ_KERNEL_DECLARE_(name, params) \
  template <class Space>                  \
  void name params;
#define KPZ_KERNEL_INSTANTIATE_(name, params) template void name params;
#define KPZ_KERNEL_MEMBER_(name, params) void(*name) params;
#define KPZ_KERNEL_REFERENCE_(name, params) &reference::name<Space>,
#define KPZ_KERNEL_EXERCISE_(name, params) &exercise::name<Space>,

// Used inside namespace kpz::<puzzle>: declares the kernels in both implementation namespaces,
// `template <class Space> struct Kernels` (one function pointer per kernel, named as the kernel)
// and `kernels<Space>(impl)`, the table of the reference or of the exercise.
#define KPZ_KERNELS(LIST)                                                                      \
  namespace exercise {                                                                         \
  LIST(KPZ_KERNEL_DECLARE_, Space)                                                             \
  }                                                                                            \
  namespace reference {                                                                        \
  LIST(KPZ_KERNEL_DECLARE_, Space)                                                             \
  }                                                                                            \
  template <class Space>                                                                       \
  struct Kernels {                                                                             \
    LIST(KPZ_KERNEL_MEMBER_, Space)                                                            \
  };                                                                                           \
  template <class Space>                                                                       \
  Kernels<Space> kernels(::kpz::Impl impl) {                                                   \
    return impl == ::kpz::Impl::reference ? Kernels<Space>{LIST(KPZ_KERNEL_REFERENCE_, Space)} \
                                          : Kernels<Space>{LIST(KPZ_KERNEL_EXERCISE_, Space)}; \
  }

// Explicit instantiations of every kernel of LIST for every enabled execution space, in the
// namespace of the implementation that defines them (the last line of its .cpp file).
#define KPZ_INSTANTIATE_KERNELS(LIST) KPZ_FOR_EACH_SPACE_WITH(LIST, KPZ_KERNEL_INSTANTIATE_)

// Kernels over a space and a value type T (`template <class Space, class T>`), listed as
// LIST(KERNEL, FAMILY, INSTANCE, Space, T): KERNEL(name, (params)) as above; FAMILY(name,
// int N, (params)) declares `template <int N, class Space, class T> void name(params)`, and each
// INSTANCE(name, 8, (params)) of it is instantiated and has the table member name_8.
#define KPZ_NOTHING_(...)
#define KPZ_KERNEL_T_DECLARE_(name, params) \
  template <class Space, class T>           \
  void name params;
#define KPZ_FAMILY_T_DECLARE_(name, param, params) \
  template <param, class Space, class T>           \
  void name params;
#define KPZ_INSTANCE_INSTANTIATE_(name, value, params) template void name<value> params;
#define KPZ_INSTANCE_MEMBER_(name, value, params) void(*name##_##value) params;
#define KPZ_KERNEL_T_REFERENCE_(name, params) &reference::name<Space, T>,
#define KPZ_KERNEL_T_EXERCISE_(name, params) &exercise::name<Space, T>,
#define KPZ_INSTANCE_REFERENCE_(name, value, params) &reference::name<value, Space, T>,
#define KPZ_INSTANCE_EXERCISE_(name, value, params) &exercise::name<value, Space, T>,

// KPZ_KERNELS for such a list: declarations, `template <class Space, class T> struct Kernels`
// and kernels<Space, T>(impl).
#define KPZ_KERNELS_T(LIST)                                                                                        \
  namespace exercise {                                                                                             \
  LIST(KPZ_KERNEL_T_DECLARE_, KPZ_FAMILY_T_DECLARE_, KPZ_NOTHING_, Space, T)                                       \
  }                                                                                                                \
  namespace reference {                                                                                            \
  LIST(KPZ_KERNEL_T_DECLARE_, KPZ_FAMILY_T_DECLARE_, KPZ_NOTHING_, Space, T)                                       \
  }                                                                                                                \
  template <class Space, class T>                                                                                  \
  struct Kernels {                                                                                                 \
    LIST(KPZ_KERNEL_MEMBER_, KPZ_NOTHING_, KPZ_INSTANCE_MEMBER_, Space, T)                                         \
  };                                                                                                               \
  template <class Space, class T>                                                                                  \
  Kernels<Space, T> kernels(::kpz::Impl impl) {                                                                    \
    return impl == ::kpz::Impl::reference                                                                          \
               ? Kernels<Space, T>{LIST(KPZ_KERNEL_T_REFERENCE_, KPZ_NOTHING_, KPZ_INSTANCE_REFERENCE_, Space, T)} \
               : Kernels<Space, T>{LIST(KPZ_KERNEL_T_EXERCISE_, KPZ_NOTHING_, KPZ_INSTANCE_EXERCISE_, Space, T)};  \
  }

// Explicit instantiations of every kernel and instance of LIST for space S and value type T.
#define KPZ_INSTANTIATE_KERNELS_T(LIST, S, T) \
  LIST(KPZ_KERNEL_INSTANTIATE_, KPZ_NOTHING_, KPZ_INSTANCE_INSTANTIATE_, S, T)

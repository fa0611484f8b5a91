// PagedVector: a fixed-size array whose entries are created page by page on first access.
//
// A check indexes per-device and per-scope state by inventory-wide ids (tens of thousands) but
// touches only the devices of the few nodes it searches; allocating and clearing a dense array
// per check would cost more than the check. Entries never move once created, so references
// stay valid.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_PAGED_VECTOR_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_PAGED_VECTOR_H_

#include <cstddef>
#include <memory>
#include <vector>

namespace draguard::alloc::internal {

template <typename T, size_t kPage = 64>
class PagedVector {
 public:
  // The table of pages is made on first access too: a check that never touches the state
  // (most checks of a fleet without counters never touch the counter scopes) neither
  // allocates nor walks it (125 page pointers for 8,000 devices).
  explicit PagedVector(size_t size) : page_count_((size + kPage - 1) / kPage) {}

  // The entry, value-initialised with its page on first access. `i` < size.
  T& operator[](size_t i) {
    if (table_ == nullptr) table_ = std::make_unique<T*[]>(page_count_);
    T*& page = table_[i / kPage];
    if (page == nullptr) page = made_.emplace_back(std::make_unique<T[]>(kPage)).get();
    return page[i % kPage];
  }

  // The entry if its page exists (it may still hold the initial value), else nullptr.
  const T* Find(size_t i) const {
    if (table_ == nullptr) return nullptr;
    const T* page = table_[i / kPage];
    return page != nullptr ? &page[i % kPage] : nullptr;
  }

 private:
  size_t page_count_;
  // The table holds plain pointers and the pages made are owned by `made_`, so that
  // destroying a touched PagedVector frees the few pages made rather than walking the whole
  // table (a walk of 125 owning pointers was ~1.2 k instructions of a webhook check that
  // touched one page of an 8,000-device inventory).
  std::unique_ptr<T*[]> table_;
  std::vector<std::unique_ptr<T[]>> made_;
};

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_PAGED_VECTOR_H_

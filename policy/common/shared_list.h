// SharedList<T>: a list of immutable T held by std::shared_ptr<const T>, read like a
// std::vector<T> that is const (range-for, size, operator[], front, back and random-access
// iterators over const T&).
//
// Why: the webhook's inventory snapshots (inventory::ClusterObjects) are rebuilt every time
// one ResourceSlice changes, and copying every object into each new snapshot kept a second
// whole copy alive during each rebuild (issue 17 item 3, docs/webhook.md "Memory under
// churn"). A new list shares the unchanged objects with the previous one (push_back of a
// Ptr, or copying the list: copies pointers), so a snapshot differing by one slice holds one
// new slice; consumers may tell an unchanged object by its pointer (ptr(i)).
//
// Writing: push_back/emplace_back add an object; Mutable(i) gives write access to an object,
// copying it first when another list shares it (copy on write), for code that builds or
// edits a list it owns. Objects shared with another list are never written, and neither is
// an object handed in as a Ptr (push_back(Ptr), Set(i, Ptr)): it may have been made const,
// so Mutable copies it once; only objects a SharedList made itself (as non-const T) are
// written in place. Thread-compatible like std::vector; the shared objects themselves are
// immutable and may be read from any thread.
#ifndef DRAGUARD_POLICY_COMMON_SHARED_LIST_H_
#define DRAGUARD_POLICY_COMMON_SHARED_LIST_H_

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace draguard {

template <typename T>
class SharedList {
 public:
  using Ptr = std::shared_ptr<const T>;
  using value_type = T;
  using size_type = size_t;
  using reference = const T&;
  using const_reference = const T&;

  // A random-access iterator over the objects (const T&).
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    const_iterator() = default;
    explicit const_iterator(typename std::vector<Ptr>::const_iterator it) : it_(it) {}
    const T& operator*() const { return **it_; }
    const T* operator->() const { return it_->get(); }
    const T& operator[](difference_type n) const { return *it_[n]; }
    const_iterator& operator++() { ++it_; return *this; }
    const_iterator operator++(int) { return const_iterator(it_++); }
    const_iterator& operator--() { --it_; return *this; }
    const_iterator operator--(int) { return const_iterator(it_--); }
    const_iterator& operator+=(difference_type n) { it_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { it_ -= n; return *this; }
    friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
    friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
    friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return a.it_ - b.it_;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) = default;
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) = default;
    // The shared pointer this iterator is at.
    const Ptr& ptr() const { return *it_; }

   private:
    typename std::vector<Ptr>::const_iterator it_;
  };
  using iterator = const_iterator;

  SharedList() = default;
  SharedList(std::initializer_list<T> items) {
    reserve(items.size());
    for (const T& item : items) push_back(item);
  }

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const_iterator begin() const { return const_iterator(items_.begin()); }
  const_iterator end() const { return const_iterator(items_.end()); }
  const T& operator[](size_t i) const { return *items_[i]; }
  const T& front() const { return *items_.front(); }
  const T& back() const { return *items_.back(); }

  // The shared pointer to object i (never null), and all of them.
  const Ptr& ptr(size_t i) const { return items_[i]; }
  const std::vector<Ptr>& ptrs() const { return items_; }

  // Adds an object made from `value`, or shares `ptr` (not null).
  void push_back(T value) { emplace_back(std::move(value)); }
  void push_back(Ptr ptr) {
    items_.push_back(std::move(ptr));
    made_here_.push_back(false);
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    auto made = std::make_shared<T>(std::forward<Args>(args)...);
    T& ref = *made;
    items_.push_back(std::move(made));
    made_here_.push_back(true);
    return ref;
  }
  // Shares objects [begin, end) of `other`.
  void Append(const SharedList& other, size_t begin, size_t end) {
    const auto b = static_cast<std::ptrdiff_t>(begin), e = static_cast<std::ptrdiff_t>(end);
    items_.insert(items_.end(), other.items_.begin() + b, other.items_.begin() + e);
    made_here_.insert(made_here_.end(), other.made_here_.begin() + b,
                      other.made_here_.begin() + e);
  }
  void Append(const SharedList& other) { Append(other, 0, other.size()); }

  // Whether Mutable(i) writes object i in place: this list is its only holder and a
  // SharedList made it. Otherwise Mutable copies it first.
  bool WritableInPlace(size_t i) const { return items_[i].use_count() == 1 && made_here_[i]; }
  // Object i for writing, copied first unless WritableInPlace(i).
  T& Mutable(size_t i) {
    if (!WritableInPlace(i)) {
      items_[i] = std::make_shared<T>(*items_[i]);
      made_here_[i] = true;
    }
    // A non-const T made by make_shared<T> above or in emplace_back, held by this list only.
    return const_cast<T&>(*items_[i]);
  }
  T& MutableBack() { return Mutable(items_.size() - 1); }
  // Replaces object i (the old one stays with the lists that share it).
  void Set(size_t i, T value) {
    items_[i] = std::make_shared<T>(std::move(value));
    made_here_[i] = true;
  }
  void Set(size_t i, Ptr ptr) {
    items_[i] = std::move(ptr);
    made_here_[i] = false;
  }
  // Removes the objects `pred` (const T&) holds for, keeping the order of the others;
  // returns how many.
  template <typename Pred>
  size_t EraseIf(Pred pred) {
    size_t kept = 0;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (pred(*items_[i])) continue;
      if (kept != i) {
        items_[kept] = std::move(items_[i]);
        made_here_[kept] = made_here_[i];
      }
      ++kept;
    }
    const size_t erased = items_.size() - kept;
    items_.resize(kept);
    made_here_.resize(kept);
    return erased;
  }

  void reserve(size_t n) {
    items_.reserve(n);
    made_here_.reserve(n);
  }
  void clear() {
    items_.clear();
    made_here_.clear();
  }
  void pop_back() {
    items_.pop_back();
    made_here_.pop_back();
  }

 private:
  std::vector<Ptr> items_;
  // Per object: made by a SharedList as a non-const T, so Mutable may write it when it is
  // the only holder (an object handed in as a Ptr may be a const object).
  std::vector<bool> made_here_;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_SHARED_LIST_H_

// NodeArena: storage for the nodes of one tree (a parsed CEL expression, a planned program),
// in a few blocks instead of one heap block per node.
//
// Why: a selector the webhook has not seen is parsed, checked, planned and, once the caches
// are full, evicted on every request; a heap block per node made each node a malloc at build
// and a free at eviction. The tree's owner holds the arena; a node is held by a
// NodePtr<T>, whose deleter runs the node's destructor (its strings and vectors still free
// their own heap) and leaves the storage to the arena, which releases its blocks when it goes.
// So the owner must destroy every node before the arena: declare the arena before the root
// (members are destroyed in reverse), and never move-assign such an owner member-wise (the old
// arena would go before the old nodes).
//
// Not thread safe; a tree is built by one thread. The blocks are never reused: a node
// destroyed while the tree is being built (a discarded branch) keeps its slot.
#ifndef DRAGUARD_POLICY_COMMON_NODE_ARENA_H_
#define DRAGUARD_POLICY_COMMON_NODE_ARENA_H_

#include <cstddef>
#include <memory>
#include <vector>

namespace draguard {

// Destroys a node whose storage belongs to a NodeArena.
template <class T>
struct NodeDestroyer {
  void operator()(T* node) const noexcept { node->~T(); }
};
template <class T>
using NodePtr = std::unique_ptr<T, NodeDestroyer<T>>;

template <class T>
class NodeArena {
 public:
  // `first_block` nodes fit in the first block (sized by the builder's guess of the tree,
  // so that most trees take one block); each later block is twice the one before.
  explicit NodeArena(size_t first_block = 16) : next_block_(first_block < 4 ? 4 : first_block) {}
  NodeArena(const NodeArena&) = delete;
  NodeArena& operator=(const NodeArena&) = delete;

  // A value-initialized node in the arena.
  NodePtr<T> New() { return NodePtr<T>(new (Allocate()) T()); }

  // The heap the arena holds (itself, its blocks and their list), for memory estimates.
  size_t bytes() const { return sizeof(*this) + bytes_ + more_.capacity() * sizeof(more_[0]); }

 private:
  struct Slot {
    alignas(T) unsigned char bytes[sizeof(T)];
  };

  void* Allocate() {
    if (used_ == capacity_) Grow();
    return &current_[used_++];
  }
  void Grow() {
    std::unique_ptr<Slot[]> block(new Slot[next_block_]);
    current_ = block.get();
    if (first_ == nullptr) {
      first_ = std::move(block);
    } else {
      more_.push_back(std::move(block));
    }
    capacity_ = next_block_;
    used_ = 0;
    bytes_ += next_block_ * sizeof(Slot);
    next_block_ *= 2;
  }

  std::unique_ptr<Slot[]> first_;             // the usual tree's only block
  std::vector<std::unique_ptr<Slot[]>> more_;  // later blocks, if any
  Slot* current_ = nullptr;
  size_t used_ = 0;      // slots used in current_
  size_t capacity_ = 0;  // slots in current_
  size_t next_block_;
  size_t bytes_ = 0;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_NODE_ARENA_H_

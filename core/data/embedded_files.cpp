// Embeds resources/data/ with the assembler's .incbin directive: each file becomes a
// read-only byte array between a start and an end symbol. CMake passes the absolute
// resource directory as EPSILON_DATA_RESOURCE_DIR and lists the files as OBJECT_DEPENDS.
#include "core/data/embedded_files.h"

#include <array>
#include <string>

#include "core/common/errors.h"

#ifndef EPSILON_DATA_RESOURCE_DIR
#error "EPSILON_DATA_RESOURCE_DIR must name the resources/data directory (see CMakeLists.txt)"
#endif

// Defines symbol##_start / symbol##_end (hidden, so a shared library does not export them)
// around the bytes of `file` in .rodata, plus one NUL byte after the end.
// clang-format off
#define EPSILON_EMBED_FILE(symbol, file)                                            \
  __asm__(".section .rodata\n"                                                      \
          ".global " #symbol "_start\n"  ".hidden " #symbol "_start\n"              \
          ".global " #symbol "_end\n"    ".hidden " #symbol "_end\n"                \
          ".balign 16\n"                                                            \
          #symbol "_start:\n"                                                       \
          ".incbin \"" EPSILON_DATA_RESOURCE_DIR "/" file "\"\n"                     \
          #symbol "_end:\n"                                                         \
          ".byte 0\n"                                                               \
          ".previous\n");                                                           \
  extern "C" __attribute__((visibility("hidden"))) const unsigned char symbol##_start[]; \
  extern "C" __attribute__((visibility("hidden"))) const unsigned char symbol##_end[]
// clang-format on

EPSILON_EMBED_FILE(epsilon_data_mnist_train_images, "mnist-10k/train-images-idx3-ubyte.gz");
EPSILON_EMBED_FILE(epsilon_data_mnist_train_labels, "mnist-10k/train-labels-idx1-ubyte.gz");
EPSILON_EMBED_FILE(epsilon_data_mnist_test_images, "mnist-10k/t10k-images-idx3-ubyte.gz");
EPSILON_EMBED_FILE(epsilon_data_mnist_test_labels, "mnist-10k/t10k-labels-idx1-ubyte.gz");
EPSILON_EMBED_FILE(epsilon_data_uci_digits, "uci/digits.csv.gz");
EPSILON_EMBED_FILE(epsilon_data_uci_breast_cancer, "uci/breast_cancer.csv");

namespace epsilon::data {

namespace {

struct EmbeddedEntry {
  std::string_view name;
  const unsigned char* start;
  const unsigned char* end;
};

const std::array<EmbeddedEntry, 6>& entries() {
  static const std::array<EmbeddedEntry, 6> table = {{
      {"mnist-10k/train-images-idx3-ubyte.gz", epsilon_data_mnist_train_images_start,
       epsilon_data_mnist_train_images_end},
      {"mnist-10k/train-labels-idx1-ubyte.gz", epsilon_data_mnist_train_labels_start,
       epsilon_data_mnist_train_labels_end},
      {"mnist-10k/t10k-images-idx3-ubyte.gz", epsilon_data_mnist_test_images_start,
       epsilon_data_mnist_test_images_end},
      {"mnist-10k/t10k-labels-idx1-ubyte.gz", epsilon_data_mnist_test_labels_start,
       epsilon_data_mnist_test_labels_end},
      {"uci/digits.csv.gz", epsilon_data_uci_digits_start, epsilon_data_uci_digits_end},
      {"uci/breast_cancer.csv", epsilon_data_uci_breast_cancer_start,
       epsilon_data_uci_breast_cancer_end},
  }};
  return table;
}

}  // namespace

std::span<const std::byte> embeddedFile(std::string_view name) {
  for (const EmbeddedEntry& entry : entries()) {
    if (entry.name == name) {
      const auto* begin = reinterpret_cast<const std::byte*>(entry.start);
      return {begin, static_cast<std::size_t>(entry.end - entry.start)};
    }
  }
  std::string known;
  for (const EmbeddedEntry& entry : entries()) {
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  throw DataError("embedded file '" + std::string(name) +
                  "' does not exist; embedded files: " + known);
}

std::vector<std::string_view> embeddedFileNames() {
  std::vector<std::string_view> names;
  for (const EmbeddedEntry& entry : entries()) names.push_back(entry.name);
  return names;
}

}  // namespace epsilon::data

// The data files of resources/data/, assembled into the library (no Qt, no download), looked
// up by their path relative to resources/data/, e.g. "mnist-10k/train-images-idx3-ubyte.gz".
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace epsilon::data {

// The bytes of one embedded file; throws DataError naming the known files if `name` is
// not one of them.
std::span<const std::byte> embeddedFile(std::string_view name);

// The names embeddedFile() accepts.
std::vector<std::string_view> embeddedFileNames();

}  // namespace epsilon::data

#include "core/train/feature_cache.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <system_error>
#include <tuple>

namespace epsilon::train {

namespace {

// File format 2: the header names the transform's implementation version.
constexpr std::array<char, 8> kMagic{'E', 'P', 'S', 'C', 'A', 'T', 'F', '2'};
constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

// FNV-1a's xor-then-multiply step applied to 64-bit words rather than bytes (eight times
// fewer steps over hundreds of megabytes), the trailing bytes one at a time.
std::uint64_t fnv(std::uint64_t h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    h = (h ^ word) * kFnvPrime;
  }
  for (; i < bytes; ++i) h = (h ^ p[i]) * kFnvPrime;
  return h;
}

std::uint64_t hashSplit(std::uint64_t h, const data::Split& split) {
  const std::array<std::int64_t, 2> size{split.features.rows(), split.features.cols()};
  h = fnv(h, size.data(), sizeof size);
  h = fnv(h, split.features.data(), sizeof(float) * std::size_t(split.features.size()));
  return fnv(h, split.labels.data(), sizeof(int) * split.labels.size());
}

// The file header: what the features were computed from and how many there are.
struct Header {
  std::array<char, 8> magic = kMagic;
  std::uint64_t contentHash = 0;
  std::int32_t implementation = nn::kScatteringImplementation;
  std::int32_t scales = 0, angles = 0;
  std::int64_t trainRows = 0, testRows = 0, columns = 0;
  bool operator==(const Header&) const = default;
};

using Key = std::tuple<std::uint64_t, int, int>;  // content hash, scales, angles
std::mutex g_memoryMutex;
std::map<Key, std::weak_ptr<const data::Dataset>> g_memory;
std::shared_ptr<const data::Dataset> g_mostRecent;  // kept alive between runs

std::filesystem::path cacheFile(const FeatureCacheOptions& cache, const Header& h) {
  std::filesystem::path dir =
      cache.directory.empty() ? defaultFeatureCacheDirectory() : cache.directory;
  if (dir.empty()) return {};
  char name[96];
  std::snprintf(name, sizeof name, "scattering-v%d-J%d-L%d-%016llx.bin", int(h.implementation),
                int(h.scales), int(h.angles), static_cast<unsigned long long>(h.contentHash));
  return dir / name;
}

// Reads both splits' features when the file is exactly what `expected` describes and its
// trailing checksum matches; false otherwise (missing, truncated, corrupt, other data). Reads in
// 16 MiB pieces and reports the rows read through `progress` after each, so a run can be
// cancelled (the callback throws) while a data set's gigabyte of features comes in.
bool readCache(const std::filesystem::path& file, const Header& expected, data::Dataset& out,
               const nn::ScatteringProgress& progress) {
  std::error_code ec;
  const auto rowBytes = std::size_t(expected.columns) * sizeof(float);
  const auto payload = std::uintmax_t(expected.trainRows + expected.testRows) * rowBytes;
  if (std::filesystem::file_size(file, ec) != sizeof(Header) + payload + sizeof(std::uint64_t) ||
      ec)
    return false;  // checked before any allocation
  std::ifstream in(file, std::ios::binary);
  Header found;
  if (!in.read(reinterpret_cast<char*>(&found), sizeof found) || !(found == expected)) return false;
  out.train.features.resize(expected.trainRows, expected.columns);
  out.test.features.resize(expected.testRows, expected.columns);
  constexpr std::size_t kPiece = std::size_t{16} << 20;
  const long long total = expected.trainRows + expected.testRows;
  std::uint64_t sum = kFnvOffset, stored = 0, read = 0;
  for (data::FeatureMatrix* m : {&out.train.features, &out.test.features}) {
    auto* bytes = reinterpret_cast<char*>(m->data());
    const std::size_t size = sizeof(float) * std::size_t(m->size());
    for (std::size_t at = 0; at < size; at += kPiece) {
      const std::size_t piece = std::min(kPiece, size - at);
      if (!in.read(bytes + at, std::streamsize(piece))) return false;
      sum = fnv(sum, bytes + at, piece);
      read += piece;
      if (progress && rowBytes > 0) progress(static_cast<long long>(read / rowBytes), total);
    }
  }
  return in.read(reinterpret_cast<char*>(&stored), sizeof stored) && stored == sum;
}

// Writes to a temporary name then renames, so a reader never sees a half-written file.
void writeCache(const std::filesystem::path& file, const Header& header, const data::Dataset& d) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&header), sizeof header);
    std::uint64_t sum = kFnvOffset;
    for (const data::FeatureMatrix* m : {&d.train.features, &d.test.features}) {
      const std::size_t bytes = sizeof(float) * std::size_t(m->size());
      out.write(reinterpret_cast<const char*>(m->data()), std::streamsize(bytes));
      sum = fnv(sum, m->data(), bytes);
    }
    out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
    if (!out) {
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace

std::filesystem::path defaultFeatureCacheDirectory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "epsilonlab" / "features";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "epsilonlab" / "features";
  return {};
}

std::uint64_t datasetContentHash(const data::Dataset& dataset) {
  const std::array<int, 4> shape{dataset.shape.channels, dataset.shape.height, dataset.shape.width,
                                 dataset.shape.isImage ? 1 : 0};
  std::uint64_t h = fnv(kFnvOffset, shape.data(), sizeof shape);
  return hashSplit(hashSplit(h, dataset.train), dataset.test);
}

std::shared_ptr<const data::Dataset> scatteringFeatures(const data::Dataset& raw,
                                                        nn::ScatteringOptions options,
                                                        const FeatureCacheOptions& cache,
                                                        const nn::ScatteringProgress& progress,
                                                        FeatureSource* source) {
  const data::SampleShape shape = nn::scatteringOutputShape(raw.shape, options);
  Header header;
  header.contentHash = datasetContentHash(raw);
  header.scales = options.scales;
  header.angles = options.angles;
  header.trainRows = raw.train.size();
  header.testRows = raw.test.size();
  header.columns = shape.featureCount();
  const Key key{header.contentHash, options.scales, options.angles};
  if (cache.useMemory) {
    std::lock_guard lock(g_memoryMutex);
    if (auto found = g_memory[key].lock()) {
      if (source) *source = FeatureSource::Memory;
      return g_mostRecent = found;
    }
  }
  auto out = std::make_shared<data::Dataset>();
  out->name = raw.name;
  out->provenance = raw.provenance +
                    "; scattering features (J = " + std::to_string(options.scales) +
                    ", L = " + std::to_string(options.angles) + ", Morlet, order 2)";
  out->shape = shape;
  out->classNames = raw.classNames;
  out->train.labels = raw.train.labels;
  out->test.labels = raw.test.labels;
  const std::filesystem::path file =
      cache.useDisk ? cacheFile(cache, header) : std::filesystem::path{};
  FeatureSource from = FeatureSource::Disk;
  if (file.empty() || !readCache(file, header, *out, progress)) {
    from = FeatureSource::Computed;
    const nn::Scattering2D transform(raw.shape, options);
    const long long total = header.trainRows + header.testRows;
    out->train.features =
        transform.transformAll(raw.train.features, [&](long long done, long long) {
          if (progress) progress(done, total);
        });
    out->test.features = transform.transformAll(raw.test.features, [&](long long done, long long) {
      if (progress) progress(header.trainRows + done, total);
    });
    if (!file.empty()) writeCache(file, header, *out);
  }
  if (source) *source = from;
  std::shared_ptr<const data::Dataset> result = std::move(out);
  if (cache.useMemory) {
    std::lock_guard lock(g_memoryMutex);
    g_memory[key] = result;
    g_mostRecent = result;
  }
  return result;
}

void clearFeatureMemoryCache() {
  std::lock_guard lock(g_memoryMutex);
  g_memory.clear();
  g_mostRecent.reset();
}

}  // namespace epsilon::train

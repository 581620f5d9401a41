// Getting the bytes of a data file: whole files read with a size cap, and gzip members
// inflated with zlib in pieces, so a loader can check a header before it allocates a body.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace epsilon::data {

// No data file (raw or decompressed) may exceed this: a hostile header cannot make us
// allocate more. The largest real input, CIFAR-10's five train batches, is 150 MiB.
inline constexpr std::size_t kMaxDataFileBytes = std::size_t{1} << 30;

// The size of a regular file (symlinks followed); throws DataError naming the file if it is
// missing, or a directory, FIFO, device or socket (never opened: opening a FIFO blocks).
std::uintmax_t regularFileSize(const std::filesystem::path& path);

// Reads a whole file; throws DataError naming the file if it is missing, unreadable or
// larger than maxBytes (checked before allocating).
std::vector<std::byte> readFileBytes(const std::filesystem::path& path,
                                     std::size_t maxBytes = kMaxDataFileBytes);

// Reads at most maxBytes from the start of a file (for probing headers).
std::vector<std::byte> readFilePrefix(const std::filesystem::path& path, std::size_t maxBytes);

// True if the bytes start with the gzip magic 1f 8b (RFC 1952, section 2.3.1).
bool hasGzipMagic(std::span<const std::byte> bytes);

// One gzip member inflated front to back (zlib inflate, gzip wrapper, CRC and length
// checked by zlib at the end). Every failure is a DataError naming `source`.
class GzipReader {
 public:
  GzipReader(std::span<const std::byte> compressed, std::string source);
  ~GzipReader();
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;

  // The uncompressed size the trailer records (ISIZE, RFC 1952 section 2.3.1), already
  // checked against maxBytes and against deflate's largest ratio, 1032:1 (zlib's
  // technical details), so a truncated or forged trailer cannot ask for a huge buffer.
  std::size_t declaredSize() const { return m_declaredSize; }
  std::size_t produced() const { return m_produced; }

  // Inflates up to dest.size() bytes; returns how many, fewer only at the stream's end.
  std::size_t readSome(std::span<std::byte> dest);
  // Inflates and discards the rest of the stream; returns how many bytes that was.
  std::size_t skipToEnd();
  // Throws unless the stream ends here (no more data, CRC and length valid).
  void expectEnd();

 private:
  struct State;
  std::unique_ptr<State> m_state;
  std::string m_source;
  std::size_t m_compressedSize = 0;
  std::size_t m_declaredSize = 0;
  std::size_t m_produced = 0;
  bool m_ended = false;
};

// Inflates a whole gzip member (size checked as in GzipReader before allocating).
std::vector<std::byte> gunzip(std::span<const std::byte> compressed, const std::string& source,
                              std::size_t maxBytes = kMaxDataFileBytes);

// Inflates at most maxBytes from the start of a gzip member, which may itself be only the
// first part of a file (for probing headers); stops quietly where the input ends.
std::vector<std::byte> gunzipPrefix(std::span<const std::byte> compressedPrefix,
                                    const std::string& source, std::size_t maxBytes);

// A data file's content read front to back, raw or gzip'd (gzip is required when the
// source name ends in ".gz", else recognised by its magic). size() is the content size:
// the byte count for raw data; for gzip the trailer's record (verified when the stream
// ends), or, when that record is large (> 64 MiB) and implausibly compressed (> 64:1; real
// image files compress 2-5:1), the size found by inflating the whole stream once first, so
// a small hostile file cannot make a loader allocate gigabytes on a forged trailer.
class DataInput {
 public:
  DataInput(std::span<const std::byte> bytes, std::string source);

  const std::string& source() const { return m_source; }
  bool compressed() const { return m_gzip != nullptr; }
  std::size_t size() const;
  std::size_t offset() const { return m_offset; }

  // Reads exactly dest.size() bytes of `what`; a short file throws "truncated".
  void read(std::span<std::byte> dest, std::string_view what);
  // Passes the next `count` bytes to consume(std::span<const std::byte>) in pieces.
  template <class Consumer>
  void consume(std::size_t count, std::string_view what, Consumer&& consumer);
  // Skips the rest and returns the true content size (inflating gzip data to its end);
  // used to report what a file really holds when its header disagrees.
  std::size_t measureSize();
  // Throws unless the content ends exactly here.
  void expectEnd();

 private:
  std::span<const std::byte> nextRaw(std::size_t count, std::string_view what);
  [[noreturn]] void throwTruncated(std::size_t wanted, std::size_t got,
                                   std::string_view what) const;

  std::string m_source;
  std::span<const std::byte> m_raw;
  std::unique_ptr<GzipReader> m_gzip;
  std::size_t m_gzipSize = 0;
  std::vector<std::byte> m_buffer;
  std::size_t m_offset = 0;
};

template <class Consumer>
void DataInput::consume(std::size_t count, std::string_view what, Consumer&& consumer) {
  if (!m_gzip) {
    consumer(nextRaw(count, what));
    return;
  }
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  if (m_buffer.size() < kChunk) m_buffer.resize(kChunk);
  std::size_t left = count;
  while (left > 0) {
    const std::span<std::byte> chunk(m_buffer.data(), std::min(left, kChunk));
    read(chunk, what);
    consumer(std::span<const std::byte>(chunk));
    left -= chunk.size();
  }
}

// Big-endian 32-bit word at `bytes` (IDX headers, LeCun et al.).
inline std::uint32_t readBigEndian32(const std::byte* bytes) {
  return (std::uint32_t(bytes[0]) << 24) | (std::uint32_t(bytes[1]) << 16) |
         (std::uint32_t(bytes[2]) << 8) | std::uint32_t(bytes[3]);
}

}  // namespace epsilon::data

// Reading data files and inflating gzip members with zlib (see byte_source.h).
#include "core/data/byte_source.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::data {

namespace {

// Deflate cannot compress better than 1032:1 (zlib technical details, "Maximum
// compression factor"); the small constant covers the gzip header and trailer.
constexpr std::size_t kDeflateMaxRatio = 1032;
constexpr std::size_t kGzipMinimumBytes = 18;  // 10-byte header + empty deflate + 8-byte trailer

std::string sizeText(std::size_t bytes) {
  return std::to_string(bytes) + " bytes";
}

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::uint32_t readLittleEndian32(const std::byte* bytes) {
  return std::uint32_t(bytes[0]) | (std::uint32_t(bytes[1]) << 8) |
         (std::uint32_t(bytes[2]) << 16) | (std::uint32_t(bytes[3]) << 24);
}

std::vector<std::byte> readBytes(const std::filesystem::path& path, std::size_t count) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw DataError(path.string() + ": cannot open: " + std::strerror(errno));
  std::vector<std::byte> bytes(count);
  file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(count));
  if (static_cast<std::size_t>(file.gcount()) != count) {
    throw DataError(path.string() + ": read " + sizeText(static_cast<std::size_t>(file.gcount())) +
                    ", expected " + sizeText(count) + " (file changed or unreadable)");
  }
  return bytes;
}

}  // namespace

std::uintmax_t regularFileSize(const std::filesystem::path& path) {
  const std::string name = clippedText(path.string());
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw DataError(name + ": file does not exist");
  if (!std::filesystem::is_regular_file(status)) {
    throw DataError(name + ": expected a regular file, found a directory or special file");
  }
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw DataError(name + ": cannot read its size: " + error.message());
  return size;
}

std::vector<std::byte> readFileBytes(const std::filesystem::path& path, std::size_t maxBytes) {
  const std::uintmax_t size = regularFileSize(path);
  if (size > maxBytes) {
    throw DataError(path.string() + ": file is " + std::to_string(size) + " bytes, more than the " +
                    sizeText(maxBytes) + " a data file may have");
  }
  return readBytes(path, static_cast<std::size_t>(size));
}

std::vector<std::byte> readFilePrefix(const std::filesystem::path& path, std::size_t maxBytes) {
  const std::uintmax_t size = regularFileSize(path);
  return readBytes(path, static_cast<std::size_t>(std::min<std::uintmax_t>(size, maxBytes)));
}

bool hasGzipMagic(std::span<const std::byte> bytes) {
  return bytes.size() >= 2 && bytes[0] == std::byte{0x1f} && bytes[1] == std::byte{0x8b};
}

// ---- GzipReader -------------------------------------------------------------------------

struct GzipReader::State {
  z_stream stream{};
  bool initialised = false;
  ~State() {
    if (initialised) inflateEnd(&stream);
  }
};

GzipReader::GzipReader(std::span<const std::byte> compressed, std::string source)
    : m_state(std::make_unique<State>()),
      m_source(std::move(source)),
      m_compressedSize(compressed.size()) {
  if (!hasGzipMagic(compressed)) {
    std::string found = "an empty file";
    if (compressed.size() >= 2) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "%02x %02x", unsigned(compressed[0]), unsigned(compressed[1]));
      found = hex;
    } else if (compressed.size() == 1) {
      found = "a 1-byte file";
    }
    throw DataError(m_source + ": bad gzip: expected the magic bytes 1f 8b, found " + found);
  }
  if (compressed.size() < kGzipMinimumBytes) {
    throw DataError(m_source + ": bad gzip: truncated, " + sizeText(compressed.size()) +
                    " where a gzip member needs at least " + sizeText(kGzipMinimumBytes));
  }
  if (compressed.size() > std::numeric_limits<uInt>::max()) {
    throw DataError(m_source + ": gzip file of " + sizeText(compressed.size()) + " is too large");
  }
  m_declaredSize = readLittleEndian32(compressed.data() + compressed.size() - 4);
  const std::size_t ratioBound = compressed.size() * kDeflateMaxRatio;
  if (m_declaredSize > ratioBound) {
    throw DataError(m_source + ": bad gzip: its trailer records " + sizeText(m_declaredSize) +
                    " of data, more than " + sizeText(compressed.size()) +
                    " of deflate data can hold (1032:1 at most): truncated or corrupt");
  }
  z_stream& stream = m_state->stream;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  // 16 + MAX_WBITS: expect a gzip wrapper, so zlib checks its CRC-32 and length (zlib manual).
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
    throw DataError(m_source + ": cannot start zlib inflate (out of memory?)");
  }
  m_state->initialised = true;
}

GzipReader::~GzipReader() = default;

std::size_t GzipReader::readSome(std::span<std::byte> dest) {
  z_stream& stream = m_state->stream;
  std::size_t done = 0;
  while (done < dest.size() && !m_ended) {
    const std::size_t want =
        std::min<std::size_t>(dest.size() - done, std::numeric_limits<uInt>::max());
    stream.next_out = reinterpret_cast<Bytef*>(dest.data() + done);
    stream.avail_out = static_cast<uInt>(want);
    const int status = inflate(&stream, Z_NO_FLUSH);
    const std::size_t made = want - stream.avail_out;
    done += made;
    m_produced += made;
    if (status == Z_STREAM_END) {
      m_ended = true;
      if (stream.avail_in != 0) {
        throw DataError(
            m_source + ": bad gzip: " + std::to_string(stream.avail_in) +
            " bytes follow the end of the gzip member (concatenated members are not supported)");
      }
    } else if (status == Z_BUF_ERROR || (status == Z_OK && made == 0 && stream.avail_in == 0)) {
      throw DataError(m_source + ": bad gzip: truncated, the compressed data ends after " +
                      sizeText(m_produced) + " of output (the trailer records " +
                      sizeText(m_declaredSize) + ")");
    } else if (status != Z_OK) {
      const std::size_t at = m_compressedSize - stream.avail_in;
      throw DataError(m_source + ": bad gzip: " + (stream.msg ? stream.msg : zError(status)) +
                      " at compressed offset " + std::to_string(at));
    }
  }
  return done;
}

std::size_t GzipReader::skipToEnd() {
  std::vector<std::byte> scratch(std::size_t{1} << 16);
  std::size_t skipped = 0;
  while (!m_ended) skipped += readSome(scratch);
  return skipped;
}

void GzipReader::expectEnd() {
  const std::size_t expected = m_produced;
  std::byte extra[1];
  if (readSome(extra) != 0) {
    const std::size_t total = expected + 1 + skipToEnd();
    throw DataError(m_source + ": the gzip data holds " + sizeText(total) + ", more than the " +
                    sizeText(expected) + " its header accounts for");
  }
}

std::vector<std::byte> gunzip(std::span<const std::byte> compressed, const std::string& source,
                              std::size_t maxBytes) {
  GzipReader reader(compressed, source);
  if (reader.declaredSize() > maxBytes) {
    throw DataError(source + ": gzip trailer records " + sizeText(reader.declaredSize()) +
                    ", more than the " + sizeText(maxBytes) + " allowed");
  }
  std::vector<std::byte> bytes(reader.declaredSize());
  const std::size_t got = reader.readSome(bytes);
  if (got != bytes.size()) {
    throw DataError(source + ": bad gzip: the data ends after " + sizeText(got) +
                    " but its trailer records " + sizeText(bytes.size()));
  }
  reader.expectEnd();
  return bytes;
}

std::vector<std::byte> gunzipPrefix(std::span<const std::byte> compressedPrefix,
                                    const std::string& source, std::size_t maxBytes) {
  if (!hasGzipMagic(compressedPrefix)) {
    throw DataError(source + ": bad gzip: expected the magic bytes 1f 8b");
  }
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    throw DataError(source + ": cannot start zlib inflate");
  std::vector<std::byte> out(maxBytes);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(compressedPrefix.data()));
  stream.avail_in = static_cast<uInt>(
      std::min<std::size_t>(compressedPrefix.size(), std::numeric_limits<uInt>::max()));
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int status = Z_OK;
  while (status == Z_OK && stream.avail_out > 0 && stream.avail_in > 0)
    status = inflate(&stream, Z_NO_FLUSH);
  const std::string message = stream.msg ? stream.msg : zError(status);
  inflateEnd(&stream);
  if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
    throw DataError(source + ": bad gzip: " + message);
  }
  out.resize(out.size() - stream.avail_out);
  return out;
}

// ---- DataInput --------------------------------------------------------------------------

DataInput::DataInput(std::span<const std::byte> bytes, std::string source)
    : m_source(std::move(source)) {
  if (endsWith(m_source, ".gz") || hasGzipMagic(bytes)) {
    m_gzip = std::make_unique<GzipReader>(bytes, m_source);
    if (m_gzip->declaredSize() > kMaxDataFileBytes) {
      throw DataError(m_source + ": gzip trailer records " + sizeText(m_gzip->declaredSize()) +
                      ", more than the " + sizeText(kMaxDataFileBytes) + " a data file may have");
    }
    m_gzipSize = m_gzip->declaredSize();
    constexpr std::size_t kTrustedBytes = std::size_t{64} << 20;
    constexpr std::size_t kTrustedRatio = 64;
    if (m_gzipSize > kTrustedBytes && m_gzipSize > kTrustedRatio * bytes.size()) {
      m_gzipSize = GzipReader(bytes, m_source).skipToEnd();
    }
  } else {
    m_raw = bytes;
  }
}

std::size_t DataInput::size() const {
  return m_gzip ? m_gzipSize : m_raw.size();
}

void DataInput::throwTruncated(std::size_t wanted, std::size_t got, std::string_view what) const {
  throw DataError(m_source + ": truncated: expected " + sizeText(wanted) + " of " +
                  std::string(what) + " at offset " + std::to_string(m_offset) + ", found " +
                  sizeText(got));
}

std::span<const std::byte> DataInput::nextRaw(std::size_t count, std::string_view what) {
  const std::size_t left = m_raw.size() - m_offset;
  if (count > left) throwTruncated(count, left, what);
  const auto piece = m_raw.subspan(m_offset, count);
  m_offset += count;
  return piece;
}

void DataInput::read(std::span<std::byte> dest, std::string_view what) {
  if (!m_gzip) {
    const auto piece = nextRaw(dest.size(), what);
    std::copy(piece.begin(), piece.end(), dest.begin());
    return;
  }
  const std::size_t got = m_gzip->readSome(dest);
  if (got != dest.size()) throwTruncated(dest.size(), got, what);
  m_offset += got;
}

std::size_t DataInput::measureSize() {
  if (!m_gzip) return m_raw.size();
  return m_offset + m_gzip->skipToEnd();
}

void DataInput::expectEnd() {
  if (!m_gzip) {
    if (m_offset != m_raw.size()) {
      throw DataError(m_source + ": " + sizeText(m_raw.size() - m_offset) +
                      " of unexpected data after offset " + std::to_string(m_offset));
    }
    return;
  }
  m_gzip->expectEnd();
}

}  // namespace epsilon::data

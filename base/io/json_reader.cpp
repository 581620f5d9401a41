#include "base/io/json_reader.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "core/common/text.h"
#include "core/data/byte_source.h"

namespace epsilon::ui {

QString describeJson(const QJsonValue& v) {
  switch (v.type()) {
    case QJsonValue::Null:
      return QStringLiteral("null");
    case QJsonValue::Bool:
      return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
      return QString::number(v.toDouble(), 'g', 12);
    case QJsonValue::String:
      return QLatin1Char('"') + clipped(v.toString()) + QLatin1Char('"');
    case QJsonValue::Array:
      return QStringLiteral("an array");
    case QJsonValue::Object:
      return QStringLiteral("an object");
    case QJsonValue::Undefined:
      break;
  }
  return QStringLiteral("nothing");
}

QString clipped(const QString& text) {
  return QString::fromStdString(clippedText(text.toStdString()));
}

ConfigError fileError(const QString& path, const QString& message) {
  return ConfigError((clipped(path) + QStringLiteral(": ") + message).toStdString());
}

QByteArray readBoundedFile(const QString& path, qint64 maxBytes, const QString& what) {
  std::uintmax_t size = 0;
  if (path.startsWith(QLatin1Char(':'))) {  // a Qt resource, built in: no special files there
    size = static_cast<std::uintmax_t>(QFileInfo(path).size());
  } else {
    try {
      size = data::regularFileSize(std::filesystem::path(QFile::encodeName(path).toStdString()));
    } catch (const DataError& e) {
      throw ConfigError(e.what());
    }
  }
  const QString tooLarge = QStringLiteral("expected a %1 of at most %2 MiB, found %3 bytes");
  if (size > static_cast<std::uintmax_t>(maxBytes))
    throw fileError(path, tooLarge.arg(what).arg(maxBytes >> 20).arg(size));
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    throw fileError(path, QStringLiteral("cannot open the %1 (%2)").arg(what, file.errorString()));
  // Read in pieces up to maxBytes + 1: a file that grows while read is caught, and nothing is
  // allocated beyond what was checked.
  QByteArray bytes;
  bytes.reserve(static_cast<qsizetype>(size) + 1);
  constexpr qint64 kPiece = 1 << 20;
  while (bytes.size() <= maxBytes) {
    const QByteArray piece = file.read(std::min(kPiece, maxBytes + 1 - bytes.size()));
    if (piece.isEmpty()) break;
    bytes += piece;
  }
  if (file.error() != QFileDevice::NoError)
    throw fileError(path, QStringLiteral("cannot read the %1 (%2)").arg(what, file.errorString()));
  if (bytes.size() > maxBytes)
    throw fileError(path, tooLarge.arg(what).arg(maxBytes >> 20).arg(QStringLiteral("more")));
  return bytes;
}

QJsonObject readJsonObjectFile(const QString& path, qint64 maxBytes, const QString& what) {
  return parseJsonObject(readBoundedFile(path, maxBytes, what), path);
}

QJsonValue numberToJson(double v) {
  if (std::isnan(v)) return QJsonValue(QJsonValue::Null);
  if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return v;
}

JsonReader::JsonReader(QJsonObject object, QString path)
    : m_object(std::move(object)),
      m_path(std::move(path)),
      m_known(static_cast<std::size_t>(m_object.size()), false) {}

void JsonReader::markKnown(QJsonObject::const_iterator at) {
  if (at != m_object.constEnd())
    m_known[static_cast<std::size_t>(at - m_object.constBegin())] = true;
}

void JsonReader::fail(const QString& key, const QString& message) const {
  throw ConfigError((clipped(path(key)) + QStringLiteral(": ") + message).toStdString());
}

void JsonReader::expected(const QString& key, const QString& what, const QJsonValue& got) const {
  fail(key, QStringLiteral("expected %1, got %2").arg(what, describeJson(got)));
}

QString JsonReader::path(const QString& key) const {
  if (m_path.isEmpty()) return key;
  return key.startsWith(QLatin1Char('[')) ? m_path + key : m_path + QLatin1Char('.') + key;
}

QJsonValue JsonReader::take(const QString& key, bool required) {
  // One look-up, and the key marked by its place: a set of names asked for was a third of
  // reading 10,000 runs.
  const QJsonObject::const_iterator at = m_object.constFind(key);
  if (at == m_object.constEnd()) {
    if (required) fail(key, QStringLiteral("missing (required)"));
    return QJsonValue(QJsonValue::Undefined);
  }
  markKnown(at);
  return at.value();
}

QString JsonReader::string(const QString& key, bool required, const QString& fallback,
                           bool allowEmpty) {
  const QJsonValue v = take(key, required);
  if (v.isUndefined()) return fallback;
  if (!v.isString() || (!allowEmpty && v.toString().trimmed().isEmpty()))
    expected(key, allowEmpty ? QStringLiteral("a string") : QStringLiteral("a non-empty string"),
             v);
  // A NUL inside a name or label would cut it wherever C strings meet it (file names, the
  // clipboard); EpsilonLab never writes one.
  if (v.toString().contains(QChar(0)))
    fail(key, QStringLiteral("expected text without a NUL character (\\u0000)"));
  return v.toString();
}

double JsonReader::number(const QString& key, bool required, double fallback) {
  const QJsonValue v = take(key, required);
  if (v.isUndefined()) return fallback;
  if (!v.isDouble() || !std::isfinite(v.toDouble())) expected(key, QStringLiteral("a number"), v);
  return v.toDouble();
}

double JsonReader::numberOrNull(const QString& key, double fallback) {
  const QJsonValue v = take(key, false);
  if (v.isUndefined()) return fallback;
  if (v.isNull()) return std::numeric_limits<double>::quiet_NaN();
  if (v.isDouble()) return v.toDouble();
  if (v.isString() && v.toString() == QLatin1String("inf"))
    return std::numeric_limits<double>::infinity();
  if (v.isString() && v.toString() == QLatin1String("-inf"))
    return -std::numeric_limits<double>::infinity();
  expected(key, QStringLiteral("a number, null or \"inf\""), v);
}

std::optional<double> JsonReader::optionalNumber(const QString& key,
                                                 std::optional<double> fallback) {
  const QJsonValue v = take(key, false);
  if (v.isUndefined()) return fallback;
  if (v.isNull()) return std::nullopt;
  if (!v.isDouble() || !std::isfinite(v.toDouble()))
    expected(key, QStringLiteral("a number or null"), v);
  return v.toDouble();
}

long long JsonReader::integer(const QString& key, double low, double high, long long fallback,
                              bool required) {
  const QJsonValue v = take(key, required);
  if (v.isUndefined()) return fallback;
  const double d = v.toDouble();
  if (!v.isDouble() || d != std::floor(d) || d < low || d > high)
    expected(key,
             QStringLiteral("an integer in [%1, %2]").arg(low, 0, 'g', 17).arg(high, 0, 'g', 17),
             v);
  return static_cast<long long>(d);
}

bool JsonReader::boolean(const QString& key, bool fallback) {
  const QJsonValue v = take(key, false);
  if (v.isUndefined()) return fallback;
  if (!v.isBool()) expected(key, QStringLiteral("true or false"), v);
  return v.toBool();
}

QJsonObject JsonReader::object(const QString& key, bool required) {
  const QJsonValue v = take(key, required);
  if (v.isUndefined()) return {};
  if (!v.isObject()) expected(key, QStringLiteral("an object"), v);
  return v.toObject();
}

QJsonArray JsonReader::array(const QString& key, bool required) {
  const QJsonValue v = take(key, required);
  if (v.isUndefined()) return {};
  if (!v.isArray()) expected(key, QStringLiteral("an array"), v);
  return v.toArray();
}

QStringList JsonReader::strings(const QString& key, bool required) {
  QStringList out;
  const QJsonArray items = array(key, required);
  for (int i = 0; i < items.size(); ++i) {
    if (!items[i].isString())
      expected(QStringLiteral("%1[%2]").arg(key).arg(i), QStringLiteral("a string"), items[i]);
    out << items[i].toString();
  }
  return out;
}

std::vector<int> JsonReader::integers(const QString& key, int low, int high,
                                      std::vector<int> fallback) {
  if (!has(key)) return fallback;
  std::vector<int> values;
  for (const QJsonValue& item : array(key)) {
    const double d = item.toDouble();
    if (!item.isDouble() || d != std::floor(d) || d < low || d > high)
      expected(key, QStringLiteral("integers in [%1, %2]").arg(low).arg(high), item);
    values.push_back(static_cast<int>(d));
  }
  return values;
}

JsonReader JsonReader::child(const QString& key, bool required) {
  return JsonReader(object(key, required), path(key));
}

void JsonReader::allow(const QStringList& keys) {
  for (const QString& key : keys) markKnown(m_object.constFind(key));
}

void JsonReader::allowOnly(const QStringList& keys) const {
  for (auto it = m_object.begin(); it != m_object.end(); ++it)
    if (!keys.contains(it.key())) fail(it.key(), QStringLiteral("unknown key"));
}

void JsonReader::finish() const {
  for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it)
    if (!m_known[static_cast<std::size_t>(it - m_object.constBegin())])
      fail(it.key(), QStringLiteral("unknown key"));
}

}  // namespace epsilon::ui

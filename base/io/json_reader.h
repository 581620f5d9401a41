// The one strict reader behind every EpsilonLab file (experiment, preset, session, run): a
// JSON object read key by key, with typed getters that know the key path ("runs[2].evals[5]
// .epoch"), so any error names where it is, what was expected and what was found, and
// finish() names every key nobody asked for (an unknown key is an error, never ignored).
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "core/common/errors.h"

namespace epsilon::ui {

// "null", "true", "0.5", "\"text\"" (clipped), "an array", "an object", "nothing".
QString describeJson(const QJsonValue& value);

// A value, key, path or argument as an error message quotes it: at most 80 characters, then
// "… (N bytes)" (epsilon::clippedText, core/common/text.h).
QString clipped(const QString& text);

// The error of a file's content: "<path>: <message>", the path clipped.
ConfigError fileError(const QString& path, const QString& message);

// The bytes of a regular file of at most `maxBytes` (the `what` in messages: "session"); throws
// ConfigError "<path>: ..." for a FIFO, device, socket or directory (refused before opening,
// by the rule of the data loaders), a file over the limit (checked before reading) or one
// that grows past it while read (never more than maxBytes + 1 bytes are read).
QByteArray readBoundedFile(const QString& path, qint64 maxBytes, const QString& what);

// The key path ("runs[2].config.privacy.delta") of the first key given twice in one object of
// a JSON text (Qt's parser keeps the last silently), or nothing.
std::optional<QString> firstDuplicateKey(const QByteArray& json);

// Parses a whole file (readBoundedFile) as one JSON object; throws ConfigError "<path>: ..."
// when it cannot be read, is larger than `maxBytes`, is not JSON, not an object, or gives a
// key twice in one object.
QJsonObject readJsonObjectFile(const QString& path, qint64 maxBytes, const QString& what);

// From this many bytes on, parseJsonObject parses in pieces.
inline constexpr qsizetype kPiecewiseJsonBytes = 1 << 20;

// The object of a file's bytes (`path` for messages), as readJsonObjectFile returns it. A text
// of at least `piecewiseFrom` bytes has the elements of its top-level arrays (a session's runs)
// parsed and checked in parallel: the same object, and for a bad text the same error (the
// first repeated key by its path; any text a piece cannot take is parsed whole).
QJsonObject parseJsonObject(const QByteArray& bytes, const QString& path,
                            qsizetype piecewiseFrom = kPiecewiseJsonBytes);

class JsonReader {
 public:
  // `path` is the key path of this object inside its file ("" at the top).
  JsonReader(QJsonObject object, QString path);

  [[noreturn]] void fail(const QString& key, const QString& message) const;
  [[noreturn]] void expected(const QString& key, const QString& what, const QJsonValue& got) const;
  QString path(const QString& key) const;
  bool has(const QString& key) const { return m_object.contains(key); }

  // Each getter marks the key as known; an absent key returns the fallback unless required.
  QJsonValue take(const QString& key, bool required = false);
  QString string(const QString& key, bool required = false, const QString& fallback = {},
                 bool allowEmpty = false);
  double number(const QString& key, bool required = false, double fallback = 0.0);  // finite
  // A number that may also be null (NaN) or the strings "inf"/"-inf" (JSON has no ∞).
  double numberOrNull(const QString& key, double fallback);
  std::optional<double> optionalNumber(const QString& key,
                                       std::optional<double> fallback);  // null = none
  long long integer(const QString& key, double low, double high, long long fallback,
                    bool required = false);
  bool boolean(const QString& key, bool fallback);
  QJsonObject object(const QString& key, bool required = false);
  QJsonArray array(const QString& key, bool required = false);
  QStringList strings(const QString& key, bool required = false);
  std::vector<int> integers(const QString& key, int low, int high, std::vector<int> fallback);
  // A reader for the object at `key` (an empty one when absent), its path extended.
  JsonReader child(const QString& key, bool required = false);

  // Marks keys as known without reading them.
  void allow(const QStringList& keys);
  // Names a stray key before anything else is read (a typo is then reported as itself).
  void allowOnly(const QStringList& keys) const;
  // Throws for the first key no getter asked for.
  void finish() const;

 private:
  void markKnown(QJsonObject::const_iterator at);

  QJsonObject m_object;
  QString m_path;
  std::vector<bool> m_known;  // per key of m_object, in its order: asked for or allowed
};

// A number for a file: null for NaN, "inf"/"-inf" for infinities (what numberOrNull reads).
QJsonValue numberToJson(double value);

}  // namespace epsilon::ui

// Timestamps, durations and zones as cel-go (Go's time package) handles them.
#include "policy/common/time.h"

#include <gtest/gtest.h>

namespace draguard {
namespace {

TEST(Rfc3339Test, ParseAndFormat) {
  struct Case {
    const char* in;
    const char* out;  // nullptr: error
  };
  for (const Case& c : {Case{"2009-02-13T23:31:30Z", "2009-02-13T23:31:30Z"},
                        Case{"2009-02-13T23:31:30.120Z", "2009-02-13T23:31:30.12Z"},
                        Case{"2009-02-14T01:31:30+02:00", "2009-02-13T23:31:30Z"},
                        Case{"0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"},
                        Case{"9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z"},
                        Case{"1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.5Z"},
                        Case{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"},
                        Case{"2023-02-29T00:00:00Z", nullptr}, Case{"2009-13-01T00:00:00Z", nullptr},
                        Case{"2009-02-13 23:31:30Z", nullptr}, Case{"2009-02-13T23:31:30", nullptr},
                        Case{"2009-02-13T24:00:00Z", nullptr}, Case{"2009-02-13T23:31:30.Z", nullptr},
                        Case{"2009-02-13T23:31:30Zjunk", nullptr}, Case{"", nullptr}}) {
    StatusOr<Timestamp> t = ParseRfc3339(c.in);
    if (c.out == nullptr) {
      EXPECT_FALSE(t.ok()) << c.in;
      continue;
    }
    ASSERT_TRUE(t.ok()) << c.in << ": " << t.status();
    EXPECT_EQ(FormatRfc3339(*t), c.out);
  }
  EXPECT_EQ(ParseRfc3339("2009-02-13T23:31:30Z")->seconds, 1234567890);
}

TEST(GoDurationTest, ParseAndFormat) {
  struct Case {
    const char* in;
    int64_t nanos;
    bool ok;
  };
  for (const Case& c :
       {Case{"1h2m3.5s", 3'723'500'000'000, true}, Case{"-1.5h", -5'400'000'000'000, true},
        Case{"300ms", 300'000'000, true}, Case{"1us", 1'000, true}, Case{"1\xC2\xB5s", 1'000, true},
        Case{"10ns", 10, true}, Case{"0", 0, true}, Case{"+5s", 5'000'000'000, true},
        Case{"2562047h47m16.854775807s", INT64_MAX, true}, Case{"2562048h", 0, false},
        Case{"1", 0, false}, Case{"", 0, false}, Case{"1d", 0, false}, Case{".s", 0, false},
        Case{"-", 0, false}}) {
    StatusOr<int64_t> d = ParseGoDuration(c.in);
    EXPECT_EQ(d.ok(), c.ok) << c.in;
    if (c.ok && d.ok()) {
      EXPECT_EQ(*d, c.nanos) << c.in;
    }
  }
  EXPECT_EQ(FormatCelDuration(1'000'000'000'000'000), "1000000s");
  EXPECT_EQ(FormatCelDuration(1'500'000'000), "1.5s");
  EXPECT_EQ(FormatCelDuration(-1), "-0.000000001s");
  EXPECT_EQ(FormatCelDuration(0), "0s");
}

TEST(CivilTimeTest, ZonesLikeCelGo) {
  const Timestamp t = *ParseRfc3339("2009-02-13T23:31:30Z");
  StatusOr<CivilTime> utc = CivilTimeIn(t, "");
  ASSERT_TRUE(utc.ok());
  EXPECT_EQ(utc->year, 2009);
  EXPECT_EQ(utc->day_of_year, 43);
  EXPECT_EQ(utc->day_of_week, 5);
  EXPECT_EQ(CivilTimeIn(t, "+11:00")->day, 14);
  EXPECT_EQ(CivilTimeIn(t, "02:00")->hour, 1);
  EXPECT_EQ(CivilTimeIn(*ParseRfc3339("2009-02-13T02:00:00Z"), "-02:30")->day, 12);
  for (const char* bad : {"../etc/passwd", "/etc/localtime", "No/Such_Zone", "+aa:00", "1:",
                          "Australia", "Australia/", "Europe/Paris\n"}) {
    EXPECT_FALSE(CivilTimeIn(t, bad).ok()) << bad;
  }
}

TEST(CivilTimeTest, IanaZonesFromTheSystem) {
  const Timestamp t = *ParseRfc3339("2009-02-13T23:31:30Z");
  StatusOr<CivilTime> sydney = CivilTimeIn(t, "Australia/Sydney");
  if (!sydney.ok()) GTEST_SKIP() << "no tz database here: " << sydney.status();
  EXPECT_EQ(sydney->day, 14);  // +11:00 in February (daylight saving)
  EXPECT_EQ(CivilTimeIn(t, "Asia/Kathmandu")->minute, 16);  // +05:45
}

}  // namespace
}  // namespace draguard

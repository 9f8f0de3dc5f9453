#pragma once
// A prepared SQLite statement that finalizes itself: bind, step, read columns.
#include <sqlite3.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace stampede {

class SqlStatement
{
public:
    SqlStatement(sqlite3* db, const char* sql) : m_db(db) { sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr); }
    ~SqlStatement() { sqlite3_finalize(m_stmt); }
    SqlStatement(const SqlStatement&) = delete;
    SqlStatement& operator=(const SqlStatement&) = delete;

    SqlStatement& bind(int i, std::int64_t v)
    {
        sqlite3_bind_int64(m_stmt, i, v);
        return *this;
    }
    SqlStatement& bind(int i, double v)
    {
        sqlite3_bind_double(m_stmt, i, v);
        return *this;
    }
    SqlStatement& bind(int i, const std::string& v)
    {
        sqlite3_bind_text(m_stmt, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    SqlStatement& blob(int i, const std::string& v)
    {
        sqlite3_bind_blob(m_stmt, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    // By parameter name (":name" in the SQL).
    template <typename T> SqlStatement& bind(const char* name, const T& v)
    {
        return bind(sqlite3_bind_parameter_index(m_stmt, name), v);
    }
    SqlStatement& blob(const char* name, const std::string& v)
    {
        return blob(sqlite3_bind_parameter_index(m_stmt, name), v);
    }
    // The index of the result column called `name`, -1 when there is none
    // (reading index -1 gives 0 or an empty text).
    int column(const char* name) const
    {
        const int n = sqlite3_column_count(m_stmt);
        for (int i = 0; i < n; ++i)
            if (std::strcmp(sqlite3_column_name(m_stmt, i), name) == 0)
                return i;
        return -1;
    }
    // True while there is a row to read.
    bool step()
    {
        m_rc = sqlite3_step(m_stmt);
        return m_rc == SQLITE_ROW;
    }
    // The statement did not prepare, or its last step ended in an error
    // rather than a row or the end of the rows.
    bool failed() const { return !m_stmt || (m_rc != SQLITE_OK && m_rc != SQLITE_ROW && m_rc != SQLITE_DONE); }
    std::string error() const { return sqlite3_errmsg(m_db); }
    // Runs a statement that returns nothing; true on success.
    bool run()
    {
        m_rc = sqlite3_step(m_stmt);
        return m_rc == SQLITE_DONE || m_rc == SQLITE_ROW;
    }
    // Ready to run again with new bindings.
    void reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
        m_rc = SQLITE_OK;
    }
    // Column `col` of the current row; a column of -1 (not found) reads as 0 or empty.
    std::int64_t integer(int col) const { return col < 0 ? 0 : sqlite3_column_int64(m_stmt, col); }
    double real(int col) const { return col < 0 ? 0 : sqlite3_column_double(m_stmt, col); }
    // Text or blob columns, with embedded NULs kept.
    std::string text(int col) const
    {
        if (col < 0)
            return {};
        const auto* p = static_cast<const char*>(sqlite3_column_blob(m_stmt, col));
        return p ? std::string(p, std::size_t(sqlite3_column_bytes(m_stmt, col))) : std::string();
    }
    bool ok() const { return m_stmt != nullptr; }

private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
    int m_rc = SQLITE_OK;
};

} // namespace stampede

"""Tables written block by block (CSV or Parquet) through :mod:`analyzer.core.output`, so a long
run's rows never need to fit in memory, no half-written file is left and a device or a pipe given
as the path is written into, not replaced."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.core.errors import T400Error, WriteError
from analyzer.core.output import Output

if TYPE_CHECKING:  # pandas is imported where a table is written: `import cli` stays light
    import pandas as pd


class TableWriter:
    """Append DataFrames with the same columns to ``path`` (``fmt`` "csv" or "parquet");
    :meth:`close` puts the file in place, :meth:`abort` leaves the path as it was."""

    def __init__(self, path: str, fmt: str):
        self.path, self.fmt = path, fmt
        self.rows = 0
        self._parquet = None
        self._out: Output | None = None
        if fmt == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise T400Error("Parquet output needs pyarrow: pip install 'tarneeb400[parquet]'") from None

    def _file(self):
        if self._out is None:
            self._out = Output(self.path, binary=self.fmt == "parquet")
        return self._out.file

    def write(self, df: pd.DataFrame) -> None:
        try:
            self._write(df)
        except OSError as exc:
            self.abort()
            raise WriteError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _write(self, df: pd.DataFrame) -> None:
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(df, preserve_index=False)
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self._file(), table.schema)
            self._parquet.write_table(table)
        else:
            df.to_csv(self._file(), index=False, header=self.rows == 0)
        self.rows += len(df)

    def close(self) -> None:
        try:
            if self._parquet is not None:
                self._parquet.close()
                self._parquet = None
            elif self.rows == 0 and self.fmt == "csv":
                import pandas as pd

                pd.DataFrame().to_csv(self._file(), index=False)
            self._file()
            self._out.commit()
        except OSError as exc:
            self.abort()
            raise WriteError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def abort(self) -> None:
        if self._parquet is not None:
            try:
                self._parquet.close()
            except OSError:
                pass  # a full disk: the file goes anyway
            self._parquet = None
        if self._out is not None:
            self._out.abort()
            self._out = None

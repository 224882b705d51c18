"""Tables written block by block (CSV or Parquet), aside and renamed into place at the end, so a
long run's rows never need to fit in memory and no half-written file is ever left."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from analyzer.core.errors import T400Error, WriteError

if TYPE_CHECKING:  # pandas is imported where a table is written: `import cli` stays light
    import pandas as pd


class TableWriter:
    """Append DataFrames with the same columns to ``path`` (``fmt`` "csv" or "parquet");
    :meth:`close` moves the file into place, :meth:`abort` removes it."""

    def __init__(self, path: str, fmt: str):
        self.path, self.fmt = path, fmt
        self.tmp = f"{path}.tmp-{os.getpid()}"
        self.rows = 0
        self._parquet = None
        if fmt == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise T400Error("Parquet output needs pyarrow: pip install 'tarneeb400[parquet]'") from None

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
                self._parquet = pq.ParquetWriter(self.tmp, table.schema)
            self._parquet.write_table(table)
        else:
            df.to_csv(self.tmp, index=False, mode="w" if self.rows == 0 else "a", header=self.rows == 0)
        self.rows += len(df)

    def close(self) -> None:
        try:
            if self._parquet is not None:
                self._parquet.close()
                self._parquet = None
            elif self.rows == 0:
                import pandas as pd

                pd.DataFrame().to_csv(self.tmp, index=False)
            os.replace(self.tmp, self.path)
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
        if os.path.exists(self.tmp):
            os.remove(self.tmp)

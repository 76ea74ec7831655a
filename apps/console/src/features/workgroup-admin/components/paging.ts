import { useEffect } from 'react';
import type { TablePaginationConfig } from 'antd';
import { PAGE_SIZE_DEFAULT, PAGER_THRESHOLD } from '@portcullis/contract';

/** Ten a page, the pager only when the total exceeds ten (spec 2 §9). */
export function pager(
  total: number,
  page: number,
  onChange: (page: number) => void,
): TablePaginationConfig | false {
  return total > PAGER_THRESHOLD
    ? { current: page, pageSize: PAGE_SIZE_DEFAULT, total, showSizeChanger: false, onChange }
    : false;
}

/** After deleting the last row of the last page, moves back to the page that still exists. */
export function useClampPage(
  loaded: boolean,
  total: number,
  page: number,
  setPage: (page: number) => void,
): void {
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (loaded && page > lastPage) setPage(lastPage);
  }, [loaded, page, lastPage, setPage]);
}
